/* ms-compare-ncu.c: import of Nsight Compute counters (`ncu --csv --page raw`, written by
 * kernels/ncu-counters.sh) and the model's prediction of the same counters.
 *
 * The harness launches ms_counter_marker with a grid of (launch index + 1) blocks before each
 * record's kernels; the rows after a marker, up to the next one, are that record's kernels.
 * The launch log (launch,workload,algorithm,params) names the record of each index. */
#include "ms-compare.h"
#include <math.h>
#include <string.h>

MsSource *ms_cmp_record_source(const MsCompare *cmp, MsCmpRecord *r, GError **error);

/* Split CSV text into rows of fields (RFC 4180 quoting). */
static GPtrArray *csv_rows(const char *t) {
  GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
  GPtrArray *row = g_ptr_array_new_with_free_func(g_free);
  GString *f = g_string_new(NULL);
  gboolean q = FALSE, any = FALSE;
  for (const char *p = t;; p++) {
    char ch = *p;
    if (q) {
      if (ch == '"' && p[1] == '"') g_string_append_c(f, '"'), p++;
      else if (ch == '"') q = FALSE;
      else if (ch == 0) break;
      else g_string_append_c(f, ch);
      continue;
    }
    if (ch == '"') {
      q = TRUE;
      any = TRUE;
    } else if (ch == ',') {
      g_ptr_array_add(row, g_strdup(f->str));
      g_string_truncate(f, 0);
      any = TRUE;
    } else if (ch == '\n' || ch == 0) {
      if (any || f->len) g_ptr_array_add(row, g_strdup(f->str));
      g_string_truncate(f, 0);
      if (row->len) {
        g_ptr_array_add(rows, row);
        row = g_ptr_array_new_with_free_func(g_free);
      }
      any = FALSE;
      if (ch == 0) break;
    } else if (ch != '\r') {
      g_string_append_c(f, ch);
      any = TRUE;
    }
  }
  g_ptr_array_unref(row);
  g_string_free(f, TRUE);
  return rows;
}

static int col(GPtrArray *hdr, const char *name) {
  for (guint i = 0; i < hdr->len; i++)
    if (strcmp(hdr->pdata[i], name) == 0) return (int)i;
  return -1;
}

static double cell(GPtrArray *row, int c) {
  if (c < 0 || (guint)c >= row->len) return 0;
  GString *s = g_string_new(NULL);
  for (const char *p = row->pdata[c]; *p; p++)
    if (*p != ',') g_string_append_c(s, *p); /* thousands separators */
  double v = g_ascii_strtod(s->str, NULL);
  g_string_free(s, TRUE);
  return v;
}

/* Simulate a counter record's trace and fill its predictions. */
static void predict(MsCompare *cmp, MsCmpCounter *k) {
  MsCmpRecord r = {0};
  r.file = (char *)"ncu launch log";
  r.index = k->launch;
  r.workload = k->workload;
  r.algorithm = k->algorithm;
  r.params_text = k->params_text;
  r.params = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
  gchar **kv = g_strsplit(k->params_text, " ", -1);
  for (int i = 0; kv[i]; i++) {
    char *eq = strchr(kv[i], '=');
    if (!eq) continue;
    char *v = eq + 1;
    if (strcmp(v, "true") == 0) v = (char *)"1";
    else if (strcmp(v, "false") == 0) v = (char *)"0";
    g_hash_table_replace(r.params, g_strndup(kv[i], (gsize)(eq - kv[i])), g_strdup(v));
  }
  g_strfreev(kv);
  gboolean exact = cmp->exact;
  cmp->exact = TRUE; /* counter runs are small: simulate them as launched */
  GError *e = NULL;
  for (int pass = 0; pass < 2 && !e; pass++) {
    MsSource *s = ms_cmp_record_source(cmp, &r, &e);
    if (!s) break;
    MsModel *m = ms_model_copy(cmp->model);
    if (pass == 1) m->group_words = 8; /* 32-byte sectors */
    MsSimOptions opt = {0};
    opt.per_step = TRUE;
    opt.threads = 1;
    MsResult *res = ms_simulate(m, s, &opt, &e);
    ms_source_free(s);
    ms_model_free(m);
    if (!res) break;
    for (guint i = 0; i < res->per_step->len; i++) {
      const MsStepResult *st = &g_array_index(res->per_step, MsStepResult, i);
      if (st->step.op == MS_OP_SYNC || MS_OP_NO_STAGE(st->step.op)) continue;
      gboolean rd = st->step.op == MS_OP_READ;
      if (pass == 0 && st->step.space == MS_SPACE_SHARED && ms_model_is_hmm(cmp->model)) {
        guint64 x = st->stages - st->dispatches;
        if (rd) k->pred_extra_ld += x;
        else k->pred_extra_st += x;
      } else if (pass == 0 && !ms_model_is_hmm(cmp->model) && cmp->model->kind == MS_MODEL_DMM) {
        guint64 x = st->stages - st->dispatches;
        if (rd) k->pred_extra_ld += x;
        else k->pred_extra_st += x;
      } else if (pass == 1 && (st->step.space == MS_SPACE_GLOBAL || cmp->model->kind == MS_MODEL_UMM)) {
        if (rd) k->pred_sectors_ld += st->stages, k->pred_requests_ld += st->dispatches;
        else k->pred_sectors_st += st->stages, k->pred_requests_st += st->dispatches;
      }
    }
    ms_result_free(res);
  }
  cmp->exact = exact;
  if (e) {
    k->note = g_strdup(e->message);
    g_error_free(e);
  } else {
    k->predicted = TRUE;
  }
  g_hash_table_unref(r.params);
  g_free(r.sim_family);
  g_free(r.sim_algorithm);
  g_free(r.sim_text);
  g_free(r.sim_shape);
}

gboolean ms_cmp_read_counters(MsCompare *cmp, const char *raw_csv, const char *launch_csv, GError **error) {
  gchar *raw = NULL, *log = NULL;
  GError *e = NULL;
  if (!ms_file_check(raw_csv, error) || !ms_file_check(launch_csv, error)) return FALSE;
  if (!g_file_get_contents(raw_csv, &raw, NULL, &e) || !g_file_get_contents(launch_csv, &log, NULL, &e)) {
    g_set_error(error, MS_ERROR, MS_ERROR_IO, "%s", e->message);
    g_error_free(e);
    g_free(raw);
    return FALSE;
  }
  GPtrArray *rows = csv_rows(raw), *lrows = csv_rows(log);
  gboolean ok = FALSE;
  if (rows->len < 1 || col(rows->pdata[0], "Kernel Name") < 0 || col(rows->pdata[0], "Grid Size") < 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: not ncu --csv --page raw output (no \"Kernel Name\" and \"Grid Size\" columns)", raw_csv);
    goto out;
  }
  if (lrows->len < 1 || ((GPtrArray *)lrows->pdata[0])->len < 4 || strcmp(((GPtrArray *)lrows->pdata[0])->pdata[0], "launch") != 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: not a launch log (expected the header launch,workload,algorithm,params)", launch_csv);
    goto out;
  }
  GPtrArray *hdr = rows->pdata[0];
  int kn = col(hdr, "Kernel Name"), gs = col(hdr, "Grid Size");
  static const char *const metrics[] = {
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",           "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",          "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"};
  int mc[8];
  for (int i = 0; i < 8; i++) {
    mc[i] = col(hdr, metrics[i]);
    if (mc[i] < 0 && i != 2 && i != 3) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: missing the metric column \"%s\"", raw_csv, metrics[i]);
      goto out;
    }
  }
  GHashTable *by_launch = g_hash_table_new(g_direct_hash, g_direct_equal);
  for (guint i = 1; i < lrows->len; i++) {
    GPtrArray *l = lrows->pdata[i];
    if (l->len < 4) continue;
    MsCmpCounter *k = g_new0(MsCmpCounter, 1);
    k->launch = (guint)g_ascii_strtoull(l->pdata[0], NULL, 10);
    k->workload = g_strdup(l->pdata[1]);
    k->algorithm = g_strdup(l->pdata[2]);
    k->params_text = g_strdup(l->pdata[3]);
    g_ptr_array_add(cmp->counters, k);
    g_hash_table_insert(by_launch, GUINT_TO_POINTER(k->launch + 1), k);
  }
  MsCmpCounter *cur = NULL;
  for (guint i = 1; i < rows->len; i++) {
    GPtrArray *r = rows->pdata[i];
    if ((guint)kn >= r->len || (guint)gs >= r->len) continue;
    const char *name = r->pdata[kn];
    if (!*name) continue; /* the units row */
    if (g_str_has_prefix(name, "ms_counter_marker")) {
      guint g = (guint)g_ascii_strtoull((const char *)r->pdata[gs] + (((const char *)r->pdata[gs])[0] == '('), NULL, 10);
      cur = g_hash_table_lookup(by_launch, GUINT_TO_POINTER(g));
      continue;
    }
    if (!cur) continue;
    cur->kernels++;
    cur->conflicts_ld += cell(r, mc[0]);
    cur->conflicts_st += cell(r, mc[1]);
    cur->wavefronts_ld += cell(r, mc[2]);
    cur->wavefronts_st += cell(r, mc[3]);
    cur->sectors_ld += cell(r, mc[4]);
    cur->sectors_st += cell(r, mc[5]);
    cur->requests_ld += cell(r, mc[6]);
    cur->requests_st += cell(r, mc[7]);
  }
  g_hash_table_destroy(by_launch);
  for (guint i = 0; i < cmp->counters->len; i++) predict(cmp, g_ptr_array_index(cmp->counters, i));
  ok = TRUE;
out:
  g_ptr_array_unref(rows);
  g_ptr_array_unref(lrows);
  g_free(raw);
  g_free(log);
  return ok;
}
