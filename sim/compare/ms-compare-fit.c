/* ms-compare-fit.c: training subsets, the least-squares calibration and the statistics of
 * `memsim compare` (docs/validation.md, "Calibration" and "Metrics"). */
#include "ms-compare.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

static gboolean usable(const MsCmpRecord *r) { return !r->skip && r->time_units > 0; }

gboolean ms_cmp_select_train(MsCompare *cmp, const char *spec, GError **error) {
  g_free(cmp->cal.train_spec);
  cmp->cal.train_spec = g_strdup(spec);
  guint every = 0, k = 0;
  gchar **list = NULL;
  int kind; /* 'e' every, 'f' family, 'a' algorithm, 'A' all, 'n' none */
  if (strcmp(spec, "all") == 0) kind = 'A';
  else if (strcmp(spec, "none") == 0) kind = 'n';
  else if (g_str_has_prefix(spec, "every:")) {
    char *end = NULL;
    guint64 v = g_ascii_strtoull(spec + 6, &end, 10);
    if (!spec[6] || *end || v < 2 || v > 1000000) {
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "--train %s: every:K needs an integer K >= 2", spec);
      return FALSE;
    }
    every = (guint)v;
    kind = 'e';
  } else if (g_str_has_prefix(spec, "family:") || g_str_has_prefix(spec, "algorithm:")) {
    kind = spec[0] == 'f' ? 'f' : 'a';
    list = g_strsplit(strchr(spec, ':') + 1, ",", -1);
    if (!list[0] || !list[0][0]) {
      g_strfreev(list);
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "--train %s: expected a comma-separated list after ':'", spec);
      return FALSE;
    }
  } else {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID,
                "--train %s: expected every:K, family:A[,B], algorithm:A[,B], all or none", spec);
    return FALSE;
  }
  for (guint i = 0; i < cmp->records->len; i++) {
    MsCmpRecord *r = g_ptr_array_index(cmp->records, i);
    r->train = FALSE;
    if (!usable(r)) continue;
    switch (kind) {
    case 'A': r->train = TRUE; break;
    case 'e': r->train = (k % every) == 0; break;
    case 'f': r->train = g_strv_contains((const gchar *const *)list, r->workload); break;
    case 'a': r->train = g_strv_contains((const gchar *const *)list, r->algorithm); break;
    default: break;
    }
    k++;
  }
  g_strfreev(list);
  return TRUE;
}

/* Solve the k x k system A x = b (k <= 3) by Gaussian elimination with pivoting. */
static gboolean solve(double A[3][3], double b[3], int k, double x[3]) {
  for (int c = 0; c < k; c++) {
    int p = c;
    for (int r = c + 1; r < k; r++)
      if (fabs(A[r][c]) > fabs(A[p][c])) p = r;
    if (fabs(A[p][c]) < 1e-300) return FALSE;
    for (int j = 0; j < k; j++) {
      double t = A[c][j];
      A[c][j] = A[p][j];
      A[p][j] = t;
    }
    double t = b[c];
    b[c] = b[p];
    b[p] = t;
    for (int r = c + 1; r < k; r++) {
      double f = A[r][c] / A[c][c];
      for (int j = c; j < k; j++) A[r][j] -= f * A[c][j];
      b[r] -= f * b[c];
    }
  }
  for (int c = k - 1; c >= 0; c--) {
    double s = b[c];
    for (int j = c + 1; j < k; j++) s -= A[c][j] * x[j];
    x[c] = s / A[c][c];
  }
  return TRUE;
}

/* Features of a record: launches, shared-bound units, global-bound units. */
static void features(const MsCmpRecord *r, double f[3]) {
  f[0] = (double)r->launches;
  f[1] = r->bound == MS_BOUND_SHARED ? r->units : 0;
  f[2] = r->bound == MS_BOUND_GLOBAL ? r->units : 0;
}

/* Weighted least squares on relative error: minimise sum_i ((f_i . x) / m_i - 1)^2 over the
 * active parameters, dropping a parameter that comes out negative (or has no data) and
 * refitting: an active-set non-negative least squares for three unknowns. */
gboolean ms_cmp_fit_records(GPtrArray *records, MsCalibration *cal, GError **error) {
  gboolean active[3] = {FALSE, FALSE, FALSE};
  guint n = 0;
  for (guint i = 0; i < records->len; i++) {
    const MsCmpRecord *r = g_ptr_array_index(records, i);
    double f[3];
    features(r, f);
    for (int j = 0; j < 3; j++)
      if (f[j] > 0) active[j] = TRUE;
    n++;
  }
  if (n == 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "calibration: no training record (see --train)");
    return FALSE;
  }
  double x[3] = {0, 0, 0};
  for (int round = 0; round < 4; round++) {
    int idx[3], k = 0;
    for (int j = 0; j < 3; j++)
      if (active[j]) idx[k++] = j;
    if (k == 0) break;
    double A[3][3] = {{0}}, b[3] = {0}, y[3] = {0};
    for (guint i = 0; i < records->len; i++) {
      const MsCmpRecord *r = g_ptr_array_index(records, i);
      double f[3];
      features(r, f);
      for (int a = 0; a < k; a++) {
        double fa = f[idx[a]] / r->median_ns;
        b[a] += fa;
        for (int c = 0; c < k; c++) A[a][c] += fa * f[idx[c]] / r->median_ns;
      }
    }
    if (!solve(A, b, k, y)) {
      /* Singular (e.g. launches proportional to units): drop the launch term first. */
      if (active[0] && k > 1) {
        active[0] = FALSE;
        continue;
      }
      g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "calibration: the training records do not determine the fit");
      return FALSE;
    }
    int worst = -1;
    for (int a = 0; a < k; a++)
      if (y[a] < 0 && (worst < 0 || y[a] < y[worst])) worst = a;
    x[0] = x[1] = x[2] = 0;
    for (int a = 0; a < k; a++) x[idx[a]] = y[a];
    if (worst < 0) break;
    active[idx[worst]] = FALSE;
    x[idx[worst]] = 0;
  }
  cal->launch_ns = x[0];
  cal->tu_shared = x[1];
  cal->tu_global = x[2];
  cal->has_launch = active[0];
  cal->has_shared = active[1];
  cal->has_global = active[2];
  cal->n_train = n;
  g_free(cal->method);
  cal->method = g_strdup("least squares on relative error: minimise sum over training records of "
                         "((launch_ns * kernels_per_call + ns_per_unit[bound] * units) / median_ns - 1)^2, "
                         "parameters >= 0");
  return TRUE;
}

static double predict(const MsCalibration *c, const MsCmpRecord *r) {
  double f[3];
  features(r, f);
  return c->launch_ns * f[0] + c->tu_shared * f[1] + c->tu_global * f[2];
}

/* Average ranks (ties share the mean rank). */
static double *ranks(const double *v, guint n) {
  guint *ord = g_new(guint, n);
  for (guint i = 0; i < n; i++) ord[i] = i;
  for (guint i = 1; i < n; i++) /* insertion sort: n is small */
    for (guint j = i; j > 0 && v[ord[j - 1]] > v[ord[j]]; j--) {
      guint t = ord[j];
      ord[j] = ord[j - 1];
      ord[j - 1] = t;
    }
  double *rk = g_new(double, n);
  for (guint i = 0; i < n;) {
    guint j = i;
    while (j + 1 < n && v[ord[j + 1]] == v[ord[i]]) j++;
    for (guint t = i; t <= j; t++) rk[ord[t]] = (i + j) / 2.0 + 1;
    i = j + 1;
  }
  g_free(ord);
  return rk;
}

static double pearson(const double *x, const double *y, guint n) {
  if (n < 2) return NAN;
  double mx = 0, my = 0;
  for (guint i = 0; i < n; i++) mx += x[i], my += y[i];
  mx /= n;
  my /= n;
  double sxy = 0, sxx = 0, syy = 0;
  for (guint i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx <= 0 || syy <= 0) return NAN;
  return sxy / sqrt(sxx * syy);
}

/* Pairs: records of one family whose parameters are equal and whose algorithms differ. */
static gboolean same_params(const MsCmpRecord *a, const MsCmpRecord *b) {
  return strcmp(a->workload, b->workload) == 0 && strcmp(a->params_text, b->params_text) == 0 &&
         strcmp(a->algorithm, b->algorithm) != 0;
}

void ms_cmp_stats(GPtrArray *recs, MsCmpStats *s) {
  guint n = recs->len;
  s->n = n;
  s->mape = s->pearson_log = s->spearman = s->pairs_ordered = s->pairs_ordered_untied = NAN;
  s->pairs = s->pair_ties = 0;
  if (n == 0) return;
  double *lp = g_new(double, n), *lm = g_new(double, n), sum = 0;
  for (guint i = 0; i < n; i++) {
    const MsCmpRecord *r = g_ptr_array_index(recs, i);
    sum += fabs(r->predicted_ns - r->median_ns) / r->median_ns;
    lp[i] = log(MAX(r->predicted_ns, 1e-30));
    lm[i] = log(r->median_ns);
  }
  s->mape = sum / n;
  s->pearson_log = pearson(lp, lm, n);
  double *rp = ranks(lp, n), *rm = ranks(lm, n);
  s->spearman = pearson(rp, rm, n);
  guint good = 0;
  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++) {
      const MsCmpRecord *a = g_ptr_array_index(recs, i), *b = g_ptr_array_index(recs, j);
      if (!same_params(a, b) || a->median_ns == b->median_ns) continue;
      s->pairs++;
      if (a->predicted_ns == b->predicted_ns) s->pair_ties++;
      else if ((a->predicted_ns < b->predicted_ns) == (a->median_ns < b->median_ns)) good++;
    }
  if (s->pairs) s->pairs_ordered = (double)good / s->pairs;
  if (s->pairs > s->pair_ties) s->pairs_ordered_untied = (double)good / (s->pairs - s->pair_ties);
  g_free(lp);
  g_free(lm);
  g_free(rp);
  g_free(rm);
}

/* --train none: the model's own prediction for every record, ms_result_predicted_ns() of
 * its simulated result (time units * time_unit_ns + launch_ns per kernel call), plus the
 * scaled time units of a --reduced record at time_unit_ns.  One ns per time unit for every
 * trace: calibration.ns_per_unit_shared of older fitted models is not used. */
static gboolean model_calibration(MsCompare *cmp, GError **error) {
  MsCalibration *c = &cmp->cal;
  c->launch_ns = cmp->model->launch_ns;
  c->tu_global = c->tu_shared = cmp->model->time_unit_ns;
  if (c->tu_global <= 0) {
    g_set_error(error, MS_ERROR, MS_ERROR_INVALID, "%s: --train none needs a calibrated model (time_unit_ns)", cmp->model_path);
    return FALSE;
  }
  c->has_launch = c->launch_ns > 0;
  c->has_global = c->has_shared = TRUE;
  c->n_train = 0;
  g_free(c->method);
  c->method = g_strdup_printf("the model's own prediction (%s): time units x time_unit_ns%s, for every trace",
                              cmp->model_path, c->has_launch ? " + launch_ns per kernel call" : "");
  return TRUE;
}

static double model_predict(const MsModel *m, const MsCmpRecord *r) {
  MsResult res;
  ms_cmp_record_result(r, &res);
  return ms_result_predicted_ns(&res, m) + (r->units - (double)r->time_units) * m->time_unit_ns;
}

gboolean ms_cmp_fit(MsCompare *cmp, GError **error) {
  GPtrArray *train = g_ptr_array_new(), *test = g_ptr_array_new(), *used = g_ptr_array_new();
  gboolean none = cmp->cal.train_spec && strcmp(cmp->cal.train_spec, "none") == 0;
  gboolean all = cmp->cal.train_spec && strcmp(cmp->cal.train_spec, "all") == 0;
  for (guint i = 0; i < cmp->records->len; i++) {
    MsCmpRecord *r = g_ptr_array_index(cmp->records, i);
    if (!usable(r)) continue;
    g_ptr_array_add(used, r);
    if (r->train) g_ptr_array_add(train, r);
    if (!r->train || all) g_ptr_array_add(test, r);
  }
  gboolean ok = none ? model_calibration(cmp, error) : ms_cmp_fit_records(train, &cmp->cal, error);
  if (ok) {
    for (guint i = 0; i < cmp->records->len; i++) {
      MsCmpRecord *r = g_ptr_array_index(cmp->records, i);
      if (!usable(r)) continue;
      r->predicted_ns = none ? model_predict(cmp->model, r) : predict(&cmp->cal, r);
      r->rel_error = (r->predicted_ns - r->median_ns) / r->median_ns;
    }
    ms_cmp_stats(train, &cmp->overall_train);
    cmp->cal.train_mape = cmp->overall_train.mape;
    ms_cmp_stats(test, &cmp->overall);
    /* Pair order is judged on every usable record (training ones included): whether the
     * model ranks two algorithms right hardly depends on the calibration. */
    MsCmpStats all_stats;
    ms_cmp_stats(used, &all_stats);
    cmp->overall.pairs = all_stats.pairs;
    cmp->overall.pairs_ordered = all_stats.pairs_ordered;
    cmp->overall.pair_ties = all_stats.pair_ties;
    cmp->overall.pairs_ordered_untied = all_stats.pairs_ordered_untied;
    GHashTable *by = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, (GDestroyNotify)g_ptr_array_unref);
    for (guint i = 0; i < test->len; i++) {
      MsCmpRecord *r = g_ptr_array_index(test, i);
      GPtrArray *a = g_hash_table_lookup(by, r->workload);
      if (!a) g_hash_table_insert(by, r->workload, a = g_ptr_array_new());
      g_ptr_array_add(a, r);
    }
    g_hash_table_remove_all(cmp->families);
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, by);
    while (g_hash_table_iter_next(&it, &k, &v)) {
      MsCmpStats *s = g_new0(MsCmpStats, 1);
      ms_cmp_stats(v, s);
      GPtrArray *fam = g_ptr_array_new();
      for (guint i = 0; i < used->len; i++)
        if (strcmp(((MsCmpRecord *)g_ptr_array_index(used, i))->workload, k) == 0) g_ptr_array_add(fam, g_ptr_array_index(used, i));
      MsCmpStats fs;
      ms_cmp_stats(fam, &fs);
      s->pairs = fs.pairs;
      s->pairs_ordered = fs.pairs_ordered;
      s->pair_ties = fs.pair_ties;
      s->pairs_ordered_untied = fs.pairs_ordered_untied;
      g_ptr_array_free(fam, TRUE);
      g_hash_table_insert(cmp->families, g_strdup(k), s);
    }
    g_hash_table_destroy(by);
  }
  g_ptr_array_free(train, TRUE);
  g_ptr_array_free(test, TRUE);
  g_ptr_array_free(used, TRUE);
  return ok;
}
