/* ms-compare-out.c: text, CSV, JSON and Markdown output of `memsim compare`, and the fitted
 * model file. */
#include "ms-compare.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

static GPtrArray *family_names(const MsCompare *c) {
  static const char *const order[] = {"permutation", "sat", "gcd", "bpbc", "simple", "bulk", "gf2", NULL};
  GPtrArray *a = g_ptr_array_new();
  for (int i = 0; order[i]; i++)
    if (g_hash_table_contains(c->families, order[i])) g_ptr_array_add(a, (gpointer)order[i]);
  GList *keys = g_list_sort(g_hash_table_get_keys(c->families), (GCompareFunc)strcmp);
  for (GList *l = keys; l; l = l->next)
    if (!g_strv_contains(order, l->data)) g_ptr_array_add(a, l->data);
  g_list_free(keys);
  return a;
}

static const char *set_name(const MsCompare *c, const MsCmpRecord *r) {
  if (r->skip) return "skipped";
  if (c->cal.train_spec && strcmp(c->cal.train_spec, "all") == 0) return "train+test";
  return r->train ? "train" : "test";
}

static char *num(double v, const char *fmt) {
  if (isnan(v)) return g_strdup("n/a");
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  return g_strdup(g_ascii_formatd(buf, sizeof buf, fmt, v));
}

static char *pct(double v) {
  if (isnan(v)) return g_strdup("n/a");
  return g_strdup_printf("%.1f%%", v * 100);
}

static void append_cal(const MsCompare *c, GString *s, const char *prefix) {
  const MsCalibration *k = &c->cal;
  if (k->train_spec && strcmp(k->train_spec, "none") == 0) {
    char *t = num(k->tu_global, "%.6g"), *l = num(k->launch_ns, "%.6g");
    g_string_append_printf(s, "%sprediction (--train none): the model's own, time_unit_ns %s%s%s%s\n", prefix, t,
                           k->has_launch ? ", launch_ns " : "", k->has_launch ? l : "", k->has_launch ? " per kernel call" : "");
    g_string_append_printf(s, "%ssimulation: %s size\n", prefix, c->exact ? "full (every record at its recorded size)" : "reduced (--reduced: large records scaled)");
    g_free(t);
    g_free(l);
    return;
  }
  char *a = num(k->tu_shared, "%.6g"), *b = num(k->tu_global, "%.6g"), *l = num(k->launch_ns, "%.6g");
  g_string_append_printf(s, "%scalibration (--train %s, %u training records): ns per time unit: shared-bound %s%s, "
                            "global-bound %s%s; launch %s ns%s\n",
                         prefix, k->train_spec ? k->train_spec : "every:2", k->n_train, a, k->has_shared ? "" : " (not fitted)",
                         b, k->has_global ? "" : " (not fitted)", l, k->has_launch ? "" : " (not fitted)");
  g_string_append_printf(s, "%sfit: %s\n", prefix, k->method ? k->method : "");
  g_string_append_printf(s, "%ssimulation: %s size\n", prefix, c->exact ? "full (every record at its recorded size)" : "reduced (--reduced: large records scaled)");
  g_free(a);
  g_free(b);
  g_free(l);
}

static void row_stats(GString *s, const char *name, const MsCmpStats *st, gboolean md) {
  char *m = pct(st->mape), *p = num(st->pearson_log, "%.4f"), *r = num(st->spearman, "%.4f"), *o = pct(st->pairs_ordered);
  /* ties: pairs the model predicts equal (never ordered), and the share ordered among the rest */
  char *u = pct(st->pairs_ordered_untied);
  char *ties = st->pair_ties ? g_strdup_printf(", %u tied; %s of the rest", st->pair_ties, u) : g_strdup("");
  if (md)
    g_string_append_printf(s, "| %s | %u | %s | %s | %s | %s (%u pairs%s) |\n", name, st->n, m, p, r, o, st->pairs, ties);
  else
    g_string_append_printf(s, "%-12s %6u %9s %12s %9s %9s (%u pairs%s)\n", name, st->n, m, p, r, o, st->pairs, ties);
  g_free(u);
  g_free(ties);
  g_free(m);
  g_free(p);
  g_free(r);
  g_free(o);
}

static void counters_table(const MsCompare *c, GString *s, gboolean md) {
  if (!c->counters->len) return;
  if (md)
    g_string_append(s, "\n| launch | family | algorithm | params | bank conflicts ld (ncu / model) | st (ncu / model) | "
                       "global sectors ld+st (ncu / model, 32 B) | global requests ld+st (ncu / model) | agreement |\n"
                       "|---|---|---|---|---|---|---|---|---|\n");
  else
    g_string_append_printf(s, "\ncounters (ncu) beside the model\n%-6s %-12s %-18s %-44s %17s %17s %21s %21s  %s\n", "launch",
                           "family", "algorithm", "params", "conflicts ld", "conflicts st", "sectors", "requests", "agreement");
  for (guint i = 0; i < c->counters->len; i++) {
    const MsCmpCounter *k = g_ptr_array_index(c->counters, i);
    char cl[64], cs[64], se[64], rq[64];
    GString *ag = g_string_new(NULL);
    if (k->predicted) {
      g_snprintf(cl, sizeof cl, "%.0f / %" G_GUINT64_FORMAT, k->conflicts_ld, k->pred_extra_ld);
      g_snprintf(cs, sizeof cs, "%.0f / %" G_GUINT64_FORMAT, k->conflicts_st, k->pred_extra_st);
      g_snprintf(se, sizeof se, "%.0f / %" G_GUINT64_FORMAT, k->sectors_ld + k->sectors_st, k->pred_sectors_ld + k->pred_sectors_st);
      g_snprintf(rq, sizeof rq, "%.0f / %" G_GUINT64_FORMAT, k->requests_ld + k->requests_st, k->pred_requests_ld + k->pred_requests_st);
      double dc = k->conflicts_ld + k->conflicts_st - (double)(k->pred_extra_ld + k->pred_extra_st);
      double ds = k->sectors_ld + k->sectors_st - (double)(k->pred_sectors_ld + k->pred_sectors_st);
      g_string_append_printf(ag, "conflicts %s", dc == 0 ? "exact" : "");
      if (dc != 0) g_string_append_printf(ag, "%+.0f", dc);
      g_string_append_printf(ag, ", sectors %s", ds == 0 ? "exact" : "");
      if (ds != 0) g_string_append_printf(ag, "%+.0f", ds);
    } else {
      g_snprintf(cl, sizeof cl, "%.0f / -", k->conflicts_ld);
      g_snprintf(cs, sizeof cs, "%.0f / -", k->conflicts_st);
      g_snprintf(se, sizeof se, "%.0f / -", k->sectors_ld + k->sectors_st);
      g_snprintf(rq, sizeof rq, "%.0f / -", k->requests_ld + k->requests_st);
      g_string_append(ag, k->note ? k->note : "no prediction");
    }
    if (md)
      g_string_append_printf(s, "| %u | %s | %s | %s | %s | %s | %s | %s | %s |\n", k->launch, k->workload, k->algorithm,
                             k->params_text, cl, cs, se, rq, ag->str);
    else
      g_string_append_printf(s, "%-6u %-12s %-18s %-44s %17s %17s %21s %21s  %s\n", k->launch, k->workload, k->algorithm,
                             k->params_text, cl, cs, se, rq, ag->str);
    g_string_free(ag, TRUE);
  }
}

static char *fmt_text(const MsCompare *c, gboolean md) {
  GString *s = g_string_new(NULL);
  char *desc = ms_model_describe(c->model);
  const char *dev = c->records->len ? ((MsCmpRecord *)g_ptr_array_index(c->records, 0))->device : "none";
  if (md) {
    g_string_append_printf(s, "Model `%s` (%s); device %s; %u records.\n\n", c->model_path, desc, dev, c->records->len);
    append_cal(c, s, "- ");
    g_string_append(s, "\n| family | held-out records | MAPE | Pearson r (log) | Spearman rho | pairs ordered |\n"
                       "|---|---|---|---|---|---|\n");
  } else {
    g_string_append_printf(s, "model: %s (%s)\ndevice: %s; %u records\n", c->model_path, desc, dev, c->records->len);
    append_cal(c, s, "");
    g_string_append_printf(s, "\n%-12s %6s %9s %12s %9s %9s\n", "family", "n", "MAPE", "pearson_log", "spearman", "pairs");
  }
  g_free(desc);
  GPtrArray *fams = family_names(c);
  for (guint i = 0; i < fams->len; i++) row_stats(s, fams->pdata[i], g_hash_table_lookup(c->families, fams->pdata[i]), md);
  g_ptr_array_free(fams, TRUE);
  row_stats(s, md ? "**overall**" : "overall", &c->overall, md);
  row_stats(s, md ? "training set" : "(training)", &c->overall_train, md);
  if (md)
    g_string_append(s, "\n| # | family | algorithm | params | set | launches | scale | time units | bound | predicted ns | measured ns | error |\n"
                       "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  else
    g_string_append_printf(s, "\n%4s %-12s %-18s %-66s %-8s %8s %10s %14s %-16s %14s %14s %8s\n", "#", "family", "algorithm", "params",
                           "set", "launches", "scale", "time units", "bound", "predicted ns", "measured ns", "error");
  for (guint i = 0; i < c->records->len; i++) {
    const MsCmpRecord *r = g_ptr_array_index(c->records, i);
    char *sc = num(r->scale, "%.6g");
    char *pr = r->skip ? g_strdup("-") : num(r->predicted_ns, "%.0f");
    char *me = num(r->median_ns, "%.0f");
    char *er = r->skip ? g_strdup("-") : g_strdup_printf("%+.1f%%", r->rel_error * 100);
    char *tu = r->skip ? g_strdup("-") : g_strdup_printf("%" G_GUINT64_FORMAT, r->time_units);
    const char *bd = r->skip || !r->limit ? "-" : r->limit;
    if (md)
      g_string_append_printf(s, "| %u | %s | %s | %s | %s | %" G_GUINT64_FORMAT " | %s | %s | %s | %s | %s | %s |\n", r->index,
                             r->workload, r->algorithm, r->params_text, set_name(c, r), r->launches, sc, tu, bd, pr, me, er);
    else
      g_string_append_printf(s, "%4u %-12s %-18s %-66s %-8s %8" G_GUINT64_FORMAT " %10s %14s %-16s %14s %14s %8s\n", r->index,
                             r->workload, r->algorithm, r->params_text, set_name(c, r), r->launches, sc, tu, bd, pr, me, er);
    g_free(sc);
    g_free(pr);
    g_free(me);
    g_free(er);
    g_free(tu);
  }
  counters_table(c, s, md);
  if (c->notes->len) {
    g_string_append(s, md ? "\nNotes:\n\n" : "\nnotes:\n");
    for (guint i = 0; i < c->notes->len; i++) g_string_append_printf(s, "%s%s\n", md ? "- " : "  ", (char *)c->notes->pdata[i]);
  }
  return g_string_free(s, FALSE);
}

static char *csv_field(const char *v) {
  if (!strpbrk(v, ",\"\n")) return g_strdup(v);
  GString *s = g_string_new("\"");
  for (const char *p = v; *p; p++) {
    if (*p == '"') g_string_append_c(s, '"');
    g_string_append_c(s, *p);
  }
  g_string_append_c(s, '"');
  return g_string_free(s, FALSE);
}

static char *fmt_csv(const MsCompare *c) {
  GString *s = g_string_new("file,index,family,algorithm,params,set,launches,scale,replicas,sim_params,sim_shape,time_units,units,"
                            "kernels,bound,memory,predicted_ns,measured_ns,rel_error\n");
  for (guint i = 0; i < c->records->len; i++) {
    const MsCmpRecord *r = g_ptr_array_index(c->records, i);
    char *f = csv_field(r->file), *p = csv_field(r->params_text), *sp = csv_field(r->sim_text ? r->sim_text : ""),
         *sh = csv_field(r->sim_shape ? r->sim_shape : "");
    char *sc = num(r->scale, "%.17g"), *u = num(r->units, "%.17g"), *pr = num(r->predicted_ns, "%.6f"),
         *me = num(r->median_ns, "%.1f"), *er = num(r->rel_error, "%.6f");
    if (r->skip)
      g_string_append_printf(s, "%s,%u,%s,%s,%s,skipped,%" G_GUINT64_FORMAT ",,,,,,,,,,%s,\n", f, r->index, r->workload, r->algorithm, p,
                             r->launches, me);
    else
      g_string_append_printf(s, "%s,%u,%s,%s,%s,%s,%" G_GUINT64_FORMAT ",%s,%" G_GUINT64_FORMAT ",%s,%s,%" G_GUINT64_FORMAT ",%s,%" G_GUINT64_FORMAT
                                ",%s,%s,%s,%s,%s\n",
                             f, r->index, r->workload, r->algorithm, p, set_name(c, r), r->launches, sc, r->replicas, sp, sh,
                             r->time_units, u, r->kernels, r->limit ? r->limit : "", r->bound == MS_BOUND_SHARED ? "shared" : "global",
                             pr, me, er);
    g_free(f);
    g_free(sh);
    g_free(p);
    g_free(sp);
    g_free(sc);
    g_free(u);
    g_free(pr);
    g_free(me);
    g_free(er);
  }
  return g_string_free(s, FALSE);
}

static void add_num(cJSON *o, const char *k, double v) {
  if (isnan(v)) cJSON_AddNullToObject(o, k);
  else cJSON_AddNumberToObject(o, k, v);
}

static cJSON *stats_json(const MsCmpStats *st) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddNumberToObject(o, "n", st->n);
  add_num(o, "mape", st->mape);
  add_num(o, "pearson_log", st->pearson_log);
  add_num(o, "spearman", st->spearman);
  add_num(o, "pairs_ordered", st->pairs_ordered);
  cJSON_AddNumberToObject(o, "pairs", st->pairs);
  cJSON_AddNumberToObject(o, "pair_ties", st->pair_ties);
  add_num(o, "pairs_ordered_untied", st->pairs_ordered_untied);
  return o;
}

static cJSON *cal_json(const MsCompare *c) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "train", c->cal.train_spec ? c->cal.train_spec : "every:2");
  cJSON_AddNumberToObject(o, "training_records", c->cal.n_train);
  cJSON_AddNumberToObject(o, "ns_per_unit_shared", c->cal.tu_shared);
  cJSON_AddNumberToObject(o, "ns_per_unit_global", c->cal.tu_global);
  cJSON_AddNumberToObject(o, "launch_ns", c->cal.launch_ns);
  add_num(o, "train_mape", c->cal.train_mape);
  cJSON_AddStringToObject(o, "method", c->cal.method ? c->cal.method : "");
  return o;
}

static char *fmt_json(const MsCompare *c) {
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "model", c->model_path);
  char *desc = ms_model_describe(c->model);
  cJSON_AddStringToObject(root, "model_description", desc);
  g_free(desc);
  cJSON_AddItemToObject(root, "calibration", cal_json(c));
  cJSON_AddStringToObject(root, "simulation", c->exact ? "full" : "reduced");
  cJSON *fams = cJSON_AddObjectToObject(root, "families");
  GPtrArray *names = family_names(c);
  for (guint i = 0; i < names->len; i++)
    cJSON_AddItemToObject(fams, names->pdata[i], stats_json(g_hash_table_lookup(c->families, names->pdata[i])));
  g_ptr_array_free(names, TRUE);
  cJSON_AddItemToObject(root, "overall", stats_json(&c->overall));
  cJSON_AddItemToObject(root, "training", stats_json(&c->overall_train));
  cJSON *recs = cJSON_AddArrayToObject(root, "records");
  for (guint i = 0; i < c->records->len; i++) {
    const MsCmpRecord *r = g_ptr_array_index(c->records, i);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", r->file);
    cJSON_AddNumberToObject(o, "index", r->index);
    cJSON_AddStringToObject(o, "family", r->workload);
    cJSON_AddStringToObject(o, "algorithm", r->algorithm);
    cJSON_AddStringToObject(o, "params", r->params_text);
    cJSON_AddStringToObject(o, "set", set_name(c, r));
    cJSON_AddNumberToObject(o, "launches", (double)r->launches);
    cJSON_AddNumberToObject(o, "measured_ns", r->median_ns);
    if (r->skip) {
      cJSON_AddStringToObject(o, "skipped", r->skip);
    } else {
      cJSON_AddStringToObject(o, "sim_algorithm", r->sim_algorithm);
      cJSON_AddStringToObject(o, "sim_params", r->sim_text);
      cJSON_AddStringToObject(o, "sim_shape", r->sim_shape ? r->sim_shape : "");
      cJSON_AddNumberToObject(o, "replicas", (double)r->replicas);
      cJSON_AddNumberToObject(o, "scale", r->scale);
      cJSON_AddNumberToObject(o, "time_units", (double)r->time_units);
      cJSON_AddNumberToObject(o, "units", r->units);
      cJSON_AddStringToObject(o, "bound", r->limit ? r->limit : "");
      cJSON_AddStringToObject(o, "memory", r->bound == MS_BOUND_SHARED ? "shared" : "global");
      cJSON_AddNumberToObject(o, "kernels", (double)r->kernels);
      cJSON_AddNumberToObject(o, "launch_units", (double)r->launch_units);
      cJSON_AddNumberToObject(o, "global_busy", (double)r->global_busy);
      cJSON_AddNumberToObject(o, "shared_busy", (double)r->shared_busy);
      cJSON_AddNumberToObject(o, "requests", (double)(r->shared.requests + r->global.requests));
      cJSON_AddNumberToObject(o, "shared_stages", (double)r->shared.stages);
      cJSON_AddNumberToObject(o, "global_stages", (double)r->global.stages);
      cJSON_AddNumberToObject(o, "predicted_ns", r->predicted_ns);
      cJSON_AddNumberToObject(o, "rel_error", r->rel_error);
    }
    cJSON_AddItemToArray(recs, o);
  }
  if (c->counters->len) {
    cJSON *ca = cJSON_AddArrayToObject(root, "counters");
    for (guint i = 0; i < c->counters->len; i++) {
      const MsCmpCounter *k = g_ptr_array_index(c->counters, i);
      cJSON *o = cJSON_CreateObject();
      cJSON_AddNumberToObject(o, "launch", k->launch);
      cJSON_AddStringToObject(o, "family", k->workload);
      cJSON_AddStringToObject(o, "algorithm", k->algorithm);
      cJSON_AddStringToObject(o, "params", k->params_text);
      cJSON_AddNumberToObject(o, "kernels", k->kernels);
      cJSON_AddNumberToObject(o, "bank_conflicts_ld", k->conflicts_ld);
      cJSON_AddNumberToObject(o, "bank_conflicts_st", k->conflicts_st);
      cJSON_AddNumberToObject(o, "sectors", k->sectors_ld + k->sectors_st);
      cJSON_AddNumberToObject(o, "requests", k->requests_ld + k->requests_st);
      if (k->predicted) {
        cJSON_AddNumberToObject(o, "predicted_extra_ld", (double)k->pred_extra_ld);
        cJSON_AddNumberToObject(o, "predicted_extra_st", (double)k->pred_extra_st);
        cJSON_AddNumberToObject(o, "predicted_sectors", (double)(k->pred_sectors_ld + k->pred_sectors_st));
        cJSON_AddNumberToObject(o, "predicted_requests", (double)(k->pred_requests_ld + k->pred_requests_st));
      } else {
        cJSON_AddStringToObject(o, "note", k->note ? k->note : "");
      }
      cJSON_AddItemToArray(ca, o);
    }
  }
  cJSON *notes = cJSON_AddArrayToObject(root, "notes");
  for (guint i = 0; i < c->notes->len; i++) cJSON_AddItemToArray(notes, cJSON_CreateString(c->notes->pdata[i]));
  char *t = cJSON_Print(root);
  char *out = g_strdup_printf("%s\n", t);
  cJSON_free(t);
  cJSON_Delete(root);
  return out;
}

char *ms_cmp_format(const MsCompare *c, MsCmpFormat f) {
  switch (f) {
  case MS_CMP_CSV: return fmt_csv(c);
  case MS_CMP_JSON: return fmt_json(c);
  case MS_CMP_MARKDOWN: return fmt_text(c, TRUE);
  case MS_CMP_TEXT:
  default: return fmt_text(c, FALSE);
  }
}

char *ms_cmp_model_json(const MsCompare *c, const char *const *measured, const char *command) {
  const MsModel *m = c->model;
  cJSON *o = cJSON_CreateObject();
  const char *dev = c->records->len ? ((MsCmpRecord *)g_ptr_array_index(c->records, 0))->device : "unknown";
  char *name = g_strdup_printf("%s, calibrated on %s", m->name && *m->name ? m->name : ms_model_kind_name(m->kind), dev);
  cJSON_AddStringToObject(o, "name", name);
  g_free(name);
  cJSON_AddStringToObject(o, "model", ms_model_kind_name(m->kind));
  cJSON_AddNumberToObject(o, "width", m->width);
  if (ms_model_is_hmm(m)) {
    cJSON_AddNumberToObject(o, "dmms", m->dmms);
    cJSON_AddNumberToObject(o, "shared_latency", (double)m->shared_latency);
    cJSON_AddNumberToObject(o, "global_latency", (double)m->global_latency);
  } else {
    cJSON_AddNumberToObject(o, "latency", (double)m->latency);
  }
  if (m->group_words != m->width) cJSON_AddNumberToObject(o, "group_words", (double)m->group_words);
  cJSON_AddNumberToObject(o, "time_unit_ns", c->cal.tu_global > 0 ? c->cal.tu_global : c->cal.tu_shared);
  if (c->cal.launch_ns > 0) cJSON_AddNumberToObject(o, "launch_ns", c->cal.launch_ns);
  cJSON_AddStringToObject(o, "description",
                          "time_unit_ns is the ns per time unit of global-bound traces; calibration.ns_per_unit_shared that "
                          "of traces with shared-memory requests only (docs/validation.md)");
  cJSON *cal = cal_json(c);
  cJSON *files = cJSON_AddArrayToObject(cal, "measurements");
  for (int i = 0; measured && measured[i]; i++) cJSON_AddItemToArray(files, cJSON_CreateString(measured[i]));
  cJSON_AddStringToObject(cal, "device", dev);
  if (command) cJSON_AddStringToObject(cal, "command", command);
  add_num(cal, "heldout_mape", c->overall.mape);
  cJSON_AddItemToObject(o, "calibration", cal);
  char *t = cJSON_Print(o);
  char *out = g_strdup_printf("%s\n", t);
  cJSON_free(t);
  cJSON_Delete(o);
  return out;
}
