/* ms-result.c: results as JSON (the keys of docs/cli.md) and as the human summary. */
#include "ms-private.h"

static cJSON *counts_json(const MsMemoryCounts *c) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "stages", (double)c->stages);
  cJSON_AddNumberToObject(o, "dispatches", (double)c->dispatches);
  cJSON_AddNumberToObject(o, "requests", (double)c->requests);
  cJSON_AddNumberToObject(o, "extra_stages", (double)(c->stages - c->dispatches));
  return o;
}

static cJSON *model_json(const MsModel *m) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", m->name);
  cJSON_AddStringToObject(o, "model", ms_model_kind_name(m->kind));
  cJSON_AddNumberToObject(o, "width", m->width);
  if (ms_model_is_hmm(m)) {
    cJSON_AddNumberToObject(o, "dmms", m->dmms);
    cJSON_AddNumberToObject(o, "shared_latency", (double)m->shared_latency);
    cJSON_AddNumberToObject(o, "global_latency", (double)m->global_latency);
  } else {
    cJSON_AddNumberToObject(o, "latency", (double)m->latency);
  }
  if (m->kind != MS_MODEL_DMM) cJSON_AddNumberToObject(o, "group_words", (double)m->group_words);
  /* the GPU extensions that are not at their defaults */
  if (m->global_rate > 1) cJSON_AddNumberToObject(o, "global_rate", m->global_rate);
  if (m->resident_warps) cJSON_AddNumberToObject(o, "resident_warps", (double)m->resident_warps);
  if (m->resident_blocks) cJSON_AddNumberToObject(o, "resident_blocks", (double)m->resident_blocks);
  if (m->shared_words_per_dmm) cJSON_AddNumberToObject(o, "shared_words_per_dmm", (double)m->shared_words_per_dmm);
  if (m->launch_units) cJSON_AddNumberToObject(o, "launch_units", (double)m->launch_units);
  if (m->block_start_units) cJSON_AddNumberToObject(o, "block_start_units", (double)m->block_start_units);
  if (m->barrier_units) cJSON_AddNumberToObject(o, "barrier_units", (double)m->barrier_units);
  if (m->barrier_warp_units) cJSON_AddNumberToObject(o, "barrier_warp_units", (double)m->barrier_warp_units);
  if (m->l2_words) {
    cJSON_AddNumberToObject(o, "l2_words", (double)m->l2_words);
    cJSON_AddNumberToObject(o, "l2_latency", (double)m->l2_latency);
    cJSON_AddNumberToObject(o, "l2_rate", m->l2_rate);
  }
  if (m->read_window > 1) cJSON_AddNumberToObject(o, "read_window", m->read_window);
  if (m->posted_writes) cJSON_AddBoolToObject(o, "posted_writes", 1);
  if (m->partial_write_stages) cJSON_AddNumberToObject(o, "partial_write_stages", m->partial_write_stages);
  if (m->l2_partial_write_stages) cJSON_AddNumberToObject(o, "l2_partial_write_stages", m->l2_partial_write_stages);
  if (m->l2_write_rate) cJSON_AddNumberToObject(o, "l2_write_rate", m->l2_write_rate);
  if (m->l2_ways) cJSON_AddNumberToObject(o, "l2_ways", m->l2_ways);
  if (m->l2_partitions > 1) cJSON_AddNumberToObject(o, "l2_partitions", m->l2_partitions);
  if (m->l2_line_words) cJSON_AddNumberToObject(o, "l2_line_words", (double)m->l2_line_words);
  if (m->l2_hashed_sets) cJSON_AddBoolToObject(o, "l2_hashed_sets", TRUE);
  if (m->l2_warm) cJSON_AddBoolToObject(o, "l2_warm", TRUE);
  if (m->l2_home_partitions) cJSON_AddBoolToObject(o, "l2_home_partitions", TRUE);
  if (m->l2_posted_write_backs) cJSON_AddBoolToObject(o, "l2_posted_write_backs", TRUE);
  if (m->l2_posted_fences) cJSON_AddBoolToObject(o, "l2_posted_fences", TRUE);
  if (m->dram_row_words) {
    cJSON_AddNumberToObject(o, "dram_row_words", (double)m->dram_row_words);
    cJSON_AddNumberToObject(o, "dram_lone_rate", m->dram_lone_rate);
    if (m->dram_lone_write_rate) cJSON_AddNumberToObject(o, "dram_lone_write_rate", m->dram_lone_write_rate);
  }
  if (m->dmm_global_rate) cJSON_AddNumberToObject(o, "dmm_global_rate", m->dmm_global_rate);
  if (m->dmm_port_banks) cJSON_AddNumberToObject(o, "dmm_port_banks", m->dmm_port_banks);
  if (m->dmm_port_shared) cJSON_AddBoolToObject(o, "dmm_port_shared", TRUE);
  if (m->shuffle_units) cJSON_AddNumberToObject(o, "shuffle_units", (double)m->shuffle_units);
  if (m->instruction_units) cJSON_AddNumberToObject(o, "instruction_units", (double)m->instruction_units);
  if (m->issue_rate) cJSON_AddNumberToObject(o, "issue_rate", m->issue_rate);
  if (m->l1_words) {
    cJSON_AddNumberToObject(o, "l1_words", (double)m->l1_words);
    cJSON_AddNumberToObject(o, "l1_latency", (double)m->l1_latency);
    cJSON_AddNumberToObject(o, "l1_ways", m->l1_ways);
  }
  const MsLoadCurve *curves[2] = {&m->global_loaded_latency, &m->l2_loaded_latency};
  for (int c = 0; c < 2; c++) {
    if (!curves[c]->n) continue;
    cJSON *pts = cJSON_AddArrayToObject(o, c ? "l2_loaded_latency" : "global_loaded_latency");
    for (guint32 i = 0; i < curves[c]->n; i++) {
      cJSON *pt = cJSON_CreateArray();
      cJSON_AddItemToArray(pt, cJSON_CreateNumber(curves[c]->u[i]));
      cJSON_AddItemToArray(pt, cJSON_CreateNumber((double)curves[c]->lat[i]));
      cJSON_AddItemToArray(pts, pt);
    }
  }
  if (m->time_unit_ns > 0) cJSON_AddNumberToObject(o, "time_unit_ns", m->time_unit_ns);
  if (m->launch_ns > 0) cJSON_AddNumberToObject(o, "launch_ns", m->launch_ns);
  return o;
}

/* Calibrated prediction in ns: time units at time_unit_ns, plus (fitted models of earlier
 * versions) launch_ns per kernel call, i.e. per grid barrier + 1. */
double ms_result_predicted_ns(const MsResult *r, const MsModel *m) {
  if (m->time_unit_ns <= 0) return 0;
  return (double)r->time_units * m->time_unit_ns + (double)(r->grid_barriers + 1) * m->launch_ns;
}
#define predicted_ns ms_result_predicted_ns

const char *ms_result_bound(const MsResult *r) {
  if (r->time_units == 0) return "none";
  guint64 g = r->global_busy, s = r->shared_busy, l = r->launch_total, i = r->issue_units;
  guint64 mx = MAX(MAX(g, i), MAX(s, l));
  if (2 * mx < r->time_units) return "latency";
  if (i > MAX(g, MAX(s, l))) return "issue"; /* issue_rate: the DMMs' instructions */
  if (mx == g) return "global bandwidth";
  if (mx == s) return "shared memory";
  return "launch";
}

char *ms_result_to_json(const MsResult *r, const MsModel *m, const MsSource *src, gboolean pretty) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "time_units", (double)r->time_units);
  cJSON_AddNumberToObject(o, "stages", (double)r->stages);
  cJSON_AddNumberToObject(o, "dispatches", (double)r->dispatches);
  cJSON_AddNumberToObject(o, "requests", (double)r->requests);
  cJSON_AddNumberToObject(o, "extra_stages", (double)r->extra_stages);
  cJSON_AddNumberToObject(o, "round_sum", (double)r->round_sum);
  cJSON_AddItemToObject(o, "shared", counts_json(&r->shared));
  cJSON_AddItemToObject(o, "global", counts_json(&r->global));
  cJSON_AddNumberToObject(o, "steps", (double)r->steps);
  cJSON_AddNumberToObject(o, "memory_steps", (double)r->memory_steps);
  cJSON_AddNumberToObject(o, "grid_barriers", (double)r->grid_barriers);
  cJSON_AddNumberToObject(o, "block_barriers", (double)r->block_barriers);
  if (r->compute_steps) { /* only traces with compute steps */
    cJSON_AddNumberToObject(o, "compute_steps", (double)r->compute_steps);
    cJSON_AddNumberToObject(o, "instructions", (double)r->instructions);
    if (m && m->issue_rate) cJSON_AddNumberToObject(o, "issue_units", (double)r->issue_units);
  }
  if (r->shuffle_steps) { /* only traces with shuffles: other results stay as they were */
    cJSON_AddNumberToObject(o, "shuffle_steps", (double)r->shuffle_steps);
    cJSON_AddNumberToObject(o, "shuffles", (double)r->shuffles);
  }
  if (r->signals || r->waits) { /* only traces with flags */
    cJSON_AddNumberToObject(o, "signals", (double)r->signals);
    cJSON_AddNumberToObject(o, "waits", (double)r->waits);
  }
  if (r->async_reads || r->awaits) { /* only traces with asynchronous copies */
    cJSON_AddNumberToObject(o, "async_reads", (double)r->async_reads);
    cJSON_AddNumberToObject(o, "awaits", (double)r->awaits);
  }
  cJSON_AddNumberToObject(o, "kernel_calls", (double)(r->grid_barriers + 1));
  cJSON_AddNumberToObject(o, "threads", (double)r->threads);
  cJSON_AddNumberToObject(o, "warps", (double)r->warps);
  cJSON_AddNumberToObject(o, "blocks", (double)r->blocks);
  /* what bounds the time (docs/models.md, "GPU extensions"), and the prediction */
  cJSON_AddNumberToObject(o, "kernels", (double)r->kernels);
  cJSON_AddNumberToObject(o, "launch_units", (double)r->launch_total);
  cJSON_AddNumberToObject(o, "global_busy", (double)r->global_busy);
  cJSON_AddNumberToObject(o, "shared_busy", (double)r->shared_busy);
  cJSON_AddStringToObject(o, "bound", ms_result_bound(r));
  const MsValidationBand *band = m && m->time_unit_ns > 0 ? ms_model_band(m, ms_result_bound(r)) : NULL;
  if (band) { /* only models with a "validation" key */
    cJSON *v = cJSON_AddObjectToObject(o, "validation");
    cJSON_AddStringToObject(v, "report", m->validation_report);
    cJSON_AddNumberToObject(v, "records", (double)band->records);
    cJSON_AddNumberToObject(v, "median_abs_error", band->median_abs_error);
    cJSON_AddNumberToObject(v, "p10", band->p10);
    cJSON_AddNumberToObject(v, "p90", band->p90);
  }
  if (r->l2_cached) {
    cJSON *c = cJSON_AddObjectToObject(o, "l2_cache");
    cJSON_AddNumberToObject(c, "hits", (double)r->l2_hits);
    cJSON_AddNumberToObject(c, "misses", (double)r->l2_misses);
    cJSON_AddNumberToObject(c, "dram_stages", (double)r->dram_stages);
    cJSON_AddNumberToObject(c, "dram_busy", (double)r->dram_busy);
    if (r->dram_rows) cJSON_AddNumberToObject(c, "dram_lone_stages", (double)r->dram_lone_stages);
    if (r->l2_warm) cJSON_AddBoolToObject(c, "warm", TRUE);
  }
  if (r->l1_cached) {
    cJSON *c = cJSON_AddObjectToObject(o, "l1_cache");
    cJSON_AddNumberToObject(c, "share_words", (double)r->l1_share_words);
    cJSON_AddNumberToObject(c, "hits", (double)r->l1_hits);
    cJSON_AddNumberToObject(c, "misses", (double)r->l1_misses);
  }
  if (m->time_unit_ns > 0) cJSON_AddNumberToObject(o, "predicted_ns", predicted_ns(r, m));
  cJSON_AddItemToObject(o, "model", model_json(m));
  cJSON_AddStringToObject(o, "trace", ms_source_name(src));
  if (r->per_step) {
    cJSON *a = cJSON_AddArrayToObject(o, "per_step");
    for (guint i = 0; i < r->per_step->len; i++) {
      const MsStepResult *s = &g_array_index(r->per_step, MsStepResult, i);
      cJSON *e = cJSON_CreateObject();
      cJSON_AddNumberToObject(e, "step", (double)s->index);
      cJSON_AddStringToObject(e, "op", ms_op_name(s->step.op));
      if (s->step.op == MS_OP_SYNC) {
        cJSON_AddStringToObject(e, "scope", ms_scope_name(s->step.scope));
      } else if (MS_OP_NO_STAGE(s->step.op)) {
        cJSON_AddNumberToObject(e, "threads", (double)s->requests);
        cJSON_AddNumberToObject(e, "warps", (double)s->dispatches);
      } else {
        cJSON_AddStringToObject(e, "space", ms_space_name(s->step.space));
        cJSON_AddNumberToObject(e, "requests", (double)s->requests);
        cJSON_AddNumberToObject(e, "stages", (double)s->stages);
        cJSON_AddNumberToObject(e, "dispatches", (double)s->dispatches);
        cJSON_AddNumberToObject(e, "extra_stages", (double)(s->stages - s->dispatches));
        cJSON_AddNumberToObject(e, "first_dispatch", (double)s->first_dispatch);
        cJSON_AddNumberToObject(e, "last_complete", (double)s->last_complete);
      }
      cJSON_AddItemToArray(a, e);
    }
  }
  char *s = pretty ? cJSON_Print(o) : cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  char *g = g_strdup(s);
  cJSON_free(s);
  return g;
}

void ms_result_print_text(const MsResult *r, const MsModel *m, const MsSource *src, FILE *out) {
  char *md = ms_model_describe(m);
  fprintf(out, "model   %s%s%s%s\n", md, *m->name ? " (" : "", m->name, *m->name ? ")" : "");
  g_free(md);
  fprintf(out, "trace   %s: %" G_GUINT64_FORMAT " threads, %" G_GUINT64_FORMAT " warps, %" G_GUINT64_FORMAT
               " blocks, %" G_GUINT64_FORMAT " steps (%" G_GUINT64_FORMAT " with requests, %" G_GUINT64_FORMAT
               " grid and %" G_GUINT64_FORMAT " block barriers)\n",
          ms_source_name(src), r->threads, r->warps, r->blocks, r->steps, r->memory_steps,
          r->grid_barriers, r->block_barriers);
  if (r->compute_steps)
    fprintf(out, "instructions   %" G_GUINT64_FORMAT " in %" G_GUINT64_FORMAT " compute steps (each warp's, summed)\n",
            r->instructions, r->compute_steps);
  if (r->compute_steps && m && m->issue_rate)
    fprintf(out, "issue units    %" G_GUINT64_FORMAT "   (the busiest DMM's instructions / issue_rate, summed over the phases)\n",
            r->issue_units);
  if (r->shuffle_steps)
    fprintf(out, "shuffles %" G_GUINT64_FORMAT " warp shuffles in %" G_GUINT64_FORMAT " shuffle steps\n", r->shuffles,
            r->shuffle_steps);
  if (r->signals || r->waits)
    fprintf(out, "flags    %" G_GUINT64_FORMAT " warp signals, %" G_GUINT64_FORMAT " warp waits\n", r->signals, r->waits);
  if (r->async_reads || r->awaits)
    fprintf(out, "async    %" G_GUINT64_FORMAT " warp copies, %" G_GUINT64_FORMAT " warp awaits\n", r->async_reads, r->awaits);
  fprintf(out, "---\n");
  fprintf(out, "time units     %" G_GUINT64_FORMAT "\n", r->time_units);
  fprintf(out, "round sum      %" G_GUINT64_FORMAT "   (papers' per-round bound)\n", r->round_sum);
  fprintf(out, "requests       %" G_GUINT64_FORMAT "\n", r->requests);
  fprintf(out, "dispatches     %" G_GUINT64_FORMAT "   (warp-steps)\n", r->dispatches);
  fprintf(out, "stages         %" G_GUINT64_FORMAT "\n", r->stages);
  fprintf(out, "extra stages   %" G_GUINT64_FORMAT "   (%s)\n", r->extra_stages,
          m->kind == MS_MODEL_DMM ? "bank conflicts"
          : m->kind == MS_MODEL_UMM ? "uncoalesced groups"
                                    : "bank conflicts + uncoalesced groups");
  fprintf(out, "  shared       stages %" G_GUINT64_FORMAT ", dispatches %" G_GUINT64_FORMAT ", extra %" G_GUINT64_FORMAT "\n",
          r->shared.stages, r->shared.dispatches, r->shared.stages - r->shared.dispatches);
  fprintf(out, "  global       stages %" G_GUINT64_FORMAT ", dispatches %" G_GUINT64_FORMAT ", extra %" G_GUINT64_FORMAT "\n",
          r->global.stages, r->global.dispatches, r->global.stages - r->global.dispatches);
  if (m->kind == MS_MODEL_ASYNC_HMM)
    fprintf(out, "kernel calls   %" G_GUINT64_FORMAT "   (B = %" G_GUINT64_FORMAT " barrier steps)\n",
            r->grid_barriers + 1, r->grid_barriers);
  fprintf(out, "bound          %s   (global entry busy %" G_GUINT64_FORMAT ", busiest DMM %" G_GUINT64_FORMAT
               ", launching %" G_GUINT64_FORMAT " time units in %" G_GUINT64_FORMAT " kernel%s)\n",
          ms_result_bound(r), r->global_busy, r->shared_busy, r->launch_total, r->kernels, r->kernels == 1 ? "" : "s");
  if (r->l2_cached)
    fprintf(out, "l2 cache       %" G_GUINT64_FORMAT " hits, %" G_GUINT64_FORMAT " misses; DRAM stages %" G_GUINT64_FORMAT
                 ", busy %" G_GUINT64_FORMAT " time units%s\n",
            r->l2_hits, r->l2_misses, r->dram_stages, r->dram_busy,
            r->l2_warm ? " (warm: the cache one earlier run left)" : "");
  if (r->l2_cached && r->dram_rows)
    fprintf(out, "dram rows      %" G_GUINT64_FORMAT " of the DRAM stages alone in their row (at dram_lone_rate)\n",
            r->dram_lone_stages);
  if (r->l1_cached)
    fprintf(out, "l1 cache       %" G_GUINT64_FORMAT " hits, %" G_GUINT64_FORMAT " misses (global read groups); %"
                 G_GUINT64_FORMAT " words per block\n",
            r->l1_hits, r->l1_misses, r->l1_share_words);
  if (m->time_unit_ns > 0) {
    if (m->launch_ns > 0)
      fprintf(out, "predicted ns   %.1f   (%" G_GUINT64_FORMAT " time units x time_unit_ns %g + %" G_GUINT64_FORMAT
                   " kernel calls x launch_ns %g)\n",
              predicted_ns(r, m), r->time_units, m->time_unit_ns, r->grid_barriers + 1, m->launch_ns);
    else
      fprintf(out, "predicted ns   %.1f   (%" G_GUINT64_FORMAT " time units x time_unit_ns %g)\n", predicted_ns(r, m),
              r->time_units, m->time_unit_ns);
    const MsValidationBand *b = ms_model_band(m, ms_result_bound(r));
    if (b) /* how far predictions with the same bound erred on the model's validation */
      fprintf(out, "validation     %s-bound records of %s: %" G_GUINT64_FORMAT ", median |error| %.1f%%, 80%% within %+.1f%% .. %+.1f%%\n",
              b->bound, m->validation_report, b->records, 100 * b->median_abs_error, 100 * b->p10, 100 * b->p90);
  }
  if (r->per_step) {
    fprintf(out, "---\n%6s %-5s %-6s %10s %10s %10s %10s %12s %12s\n", "step", "op", "space",
            "requests", "dispatch", "stages", "extra", "first", "complete");
    for (guint i = 0; i < r->per_step->len; i++) {
      const MsStepResult *s = &g_array_index(r->per_step, MsStepResult, i);
      if (s->step.op == MS_OP_SYNC) {
        fprintf(out, "%6" G_GUINT64_FORMAT " %-5s %-6s\n", s->index, "sync", ms_scope_name(s->step.scope));
        continue;
      }
      if (MS_OP_NO_STAGE(s->step.op)) { /* requests: its active threads; dispatch: its warps */
        fprintf(out, "%6" G_GUINT64_FORMAT " %-5s %-6s %10" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT "\n", s->index,
                s->step.op == MS_OP_SHUFFLE ? "shfl" : ms_op_name(s->step.op), "-", s->requests, s->dispatches);
        continue;
      }
      fprintf(out, "%6" G_GUINT64_FORMAT " %-5s %-6s %10" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT
                   " %10" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %12" G_GINT64_FORMAT " %12" G_GINT64_FORMAT "\n",
              s->index, ms_op_name(s->step.op), ms_space_name(s->step.space), s->requests,
              s->dispatches, s->stages, s->stages - s->dispatches, s->first_dispatch,
              s->last_complete);
    }
  }
}
