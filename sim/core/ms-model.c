/* ms-model.c: model files (docs/models.md).  Unknown keys are errors: a typo must not
 * silently change a prediction. */
#include "ms-private.h"
#include <string.h>

#define MODEL_MAX_BYTES (1u << 20)

const char *ms_model_kind_name(MsModelKind kind) {
  switch (kind) {
  case MS_MODEL_UMM: return "umm";
  case MS_MODEL_DMM: return "dmm";
  case MS_MODEL_HMM: return "hmm";
  case MS_MODEL_ASYNC_HMM: return "async-hmm";
  }
  return "?";
}

gboolean ms_model_has_residency(const MsModel *m) {
  return m->resident_warps || m->resident_blocks || m->shared_words_per_dmm;
}

gboolean ms_model_is_hmm(const MsModel *m) {
  return m->kind == MS_MODEL_HMM || m->kind == MS_MODEL_ASYNC_HMM;
}

guint ms_model_pipelines(const MsModel *m) { return ms_model_is_hmm(m) ? m->dmms + 1 : 1; }

MsModel *ms_model_new(MsModelKind kind, guint32 width, guint64 latency, guint32 dmms,
                      guint64 shared_latency, guint64 global_latency) {
  MsModel *m = g_new0(MsModel, 1);
  m->name = g_strdup("");
  m->kind = kind;
  m->width = width;
  m->latency = latency;
  m->dmms = dmms ? dmms : 1;
  m->shared_latency = shared_latency ? shared_latency : 1;
  m->global_latency = global_latency;
  m->group_words = width;
  m->global_rate = 1;
  m->read_window = 1;
  if (!ms_model_is_hmm(m)) {
    m->dmms = 1;
    m->shared_latency = m->global_latency = latency;
  }
  return m;
}

MsModel *ms_model_copy(const MsModel *m) {
  MsModel *c = g_new(MsModel, 1);
  *c = *m;
  c->name = g_strdup(m->name);
  return c;
}

void ms_model_free(MsModel *m) {
  if (!m) return;
  g_free(m->name);
  g_free(m);
}

char *ms_model_describe(const MsModel *m) {
  GString *s = g_string_new(ms_model_kind_name(m->kind));
  g_string_append_printf(s, " w=%u", m->width);
  if (ms_model_is_hmm(m))
    g_string_append_printf(s, " d=%u shared_latency=%" G_GUINT64_FORMAT
                              " global_latency=%" G_GUINT64_FORMAT,
                           m->dmms, m->shared_latency, m->global_latency);
  else
    g_string_append_printf(s, " l=%" G_GUINT64_FORMAT, m->latency);
  if (m->kind != MS_MODEL_DMM && m->group_words != m->width)
    g_string_append_printf(s, " group_words=%" G_GUINT64_FORMAT, m->group_words);
  if (m->global_rate > 1) g_string_append_printf(s, " global_rate=%u", m->global_rate);
  if (m->resident_warps) g_string_append_printf(s, " resident_warps=%" G_GUINT64_FORMAT, m->resident_warps);
  if (m->resident_blocks) g_string_append_printf(s, " resident_blocks=%" G_GUINT64_FORMAT, m->resident_blocks);
  if (m->shared_words_per_dmm)
    g_string_append_printf(s, " shared_words_per_dmm=%" G_GUINT64_FORMAT, m->shared_words_per_dmm);
  if (m->launch_units) g_string_append_printf(s, " launch_units=%" G_GUINT64_FORMAT, m->launch_units);
  if (m->block_start_units) g_string_append_printf(s, " block_start_units=%" G_GUINT64_FORMAT, m->block_start_units);
  if (m->barrier_units) g_string_append_printf(s, " barrier_units=%" G_GUINT64_FORMAT, m->barrier_units);
  if (m->barrier_warp_units) g_string_append_printf(s, " barrier_warp_units=%" G_GUINT64_FORMAT, m->barrier_warp_units);
  if (m->l2_words)
    g_string_append_printf(s, " l2_words=%" G_GUINT64_FORMAT " l2_latency=%" G_GUINT64_FORMAT " l2_rate=%u",
                           m->l2_words, m->l2_latency, m->l2_rate);
  if (m->read_window > 1) g_string_append_printf(s, " read_window=%u", m->read_window);
  if (m->posted_writes) g_string_append(s, " posted_writes=true");
  if (m->partial_write_stages) g_string_append_printf(s, " partial_write_stages=%u", m->partial_write_stages);
  if (m->l2_partial_write_stages)
    g_string_append_printf(s, " l2_partial_write_stages=%u", m->l2_partial_write_stages);
  if (m->l2_write_rate) g_string_append_printf(s, " l2_write_rate=%u", m->l2_write_rate);
  if (m->l2_ways) g_string_append_printf(s, " l2_ways=%u", m->l2_ways);
  if (m->l2_partitions > 1) g_string_append_printf(s, " l2_partitions=%u", m->l2_partitions);
  if (m->l2_line_words) g_string_append_printf(s, " l2_line_words=%" G_GUINT64_FORMAT, m->l2_line_words);
  if (m->l2_hashed_sets) g_string_append(s, " l2_hashed_sets=true");
  if (m->l2_warm) g_string_append(s, " l2_warm=true");
  if (m->l2_home_partitions) g_string_append(s, " l2_home_partitions=true");
  if (m->l2_posted_write_backs) g_string_append(s, " l2_posted_write_backs=true");
  if (m->l2_posted_fences) g_string_append(s, " l2_posted_fences=true");
  if (m->dram_row_words)
    g_string_append_printf(s, " dram_row_words=%" G_GUINT64_FORMAT " dram_lone_rate=%u", m->dram_row_words, m->dram_lone_rate);
  if (m->dram_lone_write_rate) g_string_append_printf(s, " dram_lone_write_rate=%u", m->dram_lone_write_rate);
  if (m->dmm_global_rate) g_string_append_printf(s, " dmm_global_rate=%u", m->dmm_global_rate);
  if (m->dmm_port_banks) g_string_append_printf(s, " dmm_port_banks=%u", m->dmm_port_banks);
  if (m->dmm_port_shared) g_string_append(s, " dmm_port_shared=true");
  if (m->shuffle_units) g_string_append_printf(s, " shuffle_units=%" G_GUINT64_FORMAT, m->shuffle_units);
  if (m->instruction_units) g_string_append_printf(s, " instruction_units=%" G_GUINT64_FORMAT, m->instruction_units);
  if (m->issue_rate) g_string_append_printf(s, " issue_rate=%u", m->issue_rate);
  if (m->l1_words)
    g_string_append_printf(s, " l1_words=%" G_GUINT64_FORMAT " l1_latency=%" G_GUINT64_FORMAT " l1_ways=%u",
                           m->l1_words, m->l1_latency, m->l1_ways);
  const MsLoadCurve *curves[2] = {&m->global_loaded_latency, &m->l2_loaded_latency};
  for (int c = 0; c < 2; c++) {
    if (!curves[c]->n) continue;
    g_string_append_printf(s, " %s=", c ? "l2_loaded_latency" : "global_loaded_latency");
    for (guint32 i = 0; i < curves[c]->n; i++)
      g_string_append_printf(s, "%s%u:%" G_GUINT64_FORMAT, i ? "," : "", curves[c]->u[i], curves[c]->lat[i]);
  }
  return g_string_free(s, FALSE);
}

static const char *const model_keys[] = {"name",        "model",          "width",
                                         "latency",     "dmms",           "shared_latency",
                                         "global_latency", "group_words", "time_unit_ns",
                                         "launch_ns",   "description",    "calibration",
                                         "global_rate", "resident_warps", "resident_blocks",
                                         "shared_words_per_dmm", "launch_units", "l2_words",
                                         "l2_latency",  "l2_rate",        "read_window",
                                         "posted_writes", "partial_write_stages",
                                         "l2_partial_write_stages", "l2_write_rate", "l2_ways",
                                         "l2_partitions", "block_start_units", "barrier_units", "barrier_warp_units", "l2_line_words", "l2_hashed_sets", "l2_warm", "l2_home_partitions",
                                         "l2_posted_write_backs", "l2_posted_fences", "dram_row_words", "dram_lone_rate", "dram_lone_write_rate",
                                         "dmm_global_rate", "dmm_port_banks", "dmm_port_shared", "shuffle_units", "instruction_units", "issue_rate", "l1_words",
                                         "l1_latency", "l1_ways", "global_loaded_latency",
                                         "l2_loaded_latency", "validation", NULL};

static gboolean fail(GError **error, int code, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static gboolean fail(GError **error, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  g_set_error_literal(error, MS_ERROR, code, msg);
  g_free(msg);
  return FALSE;
}

/* A loaded-latency curve: [[u, latency], ...], u per mille strictly increasing, latency
 * non-decreasing (docs/models.md, "Loaded latency"). */
static gboolean parse_curve(const cJSON *it, const char *fn, const char *key, MsLoadCurve *c, GError **error) {
  if (!cJSON_IsArray(it))
    return fail(error, MS_ERROR_INVALID, "%s: %s: expected an array of [utilization per mille, latency] points, got %s",
                fn, key, ms_json_type_name(it));
  const int n = cJSON_GetArraySize(it);
  if (n < 1 || n > (int)MS_MAX_LOAD_POINTS)
    return fail(error, MS_ERROR_INVALID, "%s: %s: %d points; expected 1 .. %u", fn, key, n, MS_MAX_LOAD_POINTS);
  c->n = 0;
  for (int i = 0; i < n; i++) {
    const cJSON *pt = cJSON_GetArrayItem(it, i);
    g_autofree char *wu = g_strdup_printf("%s[%d][0]", key, i);
    g_autofree char *wl = g_strdup_printf("%s[%d][1]", key, i);
    if (!cJSON_IsArray(pt) || cJSON_GetArraySize(pt) != 2)
      return fail(error, MS_ERROR_INVALID, "%s: %s[%d]: expected a point [utilization per mille, latency]", fn, key, i);
    guint64 u, l;
    if (!ms_json_get_uint(cJSON_GetArrayItem(pt, 0), 0, 1000, fn, wu, &u, error) ||
        !ms_json_get_uint(cJSON_GetArrayItem(pt, 1), 1, MS_MAX_LATENCY, fn, wl, &l, error))
      return FALSE;
    if (i && u <= c->u[i - 1])
      return fail(error, MS_ERROR_INVALID, "%s: %s[%d]: utilization %" G_GUINT64_FORMAT " does not increase (the point before has %u)",
                  fn, key, i, u, c->u[i - 1]);
    if (i && l < c->lat[i - 1])
      return fail(error, MS_ERROR_INVALID, "%s: %s[%d]: latency %" G_GUINT64_FORMAT " is below the point before's (%" G_GUINT64_FORMAT ")",
                  fn, key, i, l, c->lat[i - 1]);
    c->u[i] = (guint32)u;
    c->lat[i] = l;
    c->n = (guint32)i + 1;
  }
  return TRUE;
}

/* "validation": {"report", "records", "made_by", "bounds": [{"bound", "records",
 * "median_abs_error", "p10", "p90"}, ...]}: metadata printed beside a prediction. */
static gboolean parse_validation(const cJSON *it, const char *fn, MsModel *m, GError **error) {
  static const char *const keys[] = {"report", "records", "made_by", "bounds", NULL};
  static const char *const bkeys[] = {"bound", "records", "median_abs_error", "p10", "p90", NULL};
  static const char *const bounds[] = {"latency", "global bandwidth", "shared memory", "launch", "issue"};
  if (!cJSON_IsObject(it))
    return fail(error, MS_ERROR_INVALID, "%s: validation: expected an object, got %s", fn, ms_json_type_name(it));
  if (!ms_json_check_keys(it, keys, fn, "validation", error)) return FALSE;
  const cJSON *x = cJSON_GetObjectItemCaseSensitive(it, "report");
  if (!x) return fail(error, MS_ERROR_INVALID, "%s: validation: missing key \"report\"", fn);
  const char *rep = ms_json_get_string(x, fn, "validation.report", error);
  if (!rep) return FALSE;
  if (!*rep || strlen(rep) >= sizeof m->validation_report)
    return fail(error, MS_ERROR_INVALID, "%s: validation.report: expected a path of 1 .. %u characters", fn,
                (unsigned)sizeof m->validation_report - 1);
  g_strlcpy(m->validation_report, rep, sizeof m->validation_report);
  x = cJSON_GetObjectItemCaseSensitive(it, "made_by");
  if (x && !ms_json_get_string(x, fn, "validation.made_by", error)) return FALSE;
  x = cJSON_GetObjectItemCaseSensitive(it, "records");
  if (x && !ms_json_get_uint(x, 1, G_MAXUINT32, fn, "validation.records", &m->validation_records, error)) return FALSE;
  x = cJSON_GetObjectItemCaseSensitive(it, "bounds");
  if (!x) return fail(error, MS_ERROR_INVALID, "%s: validation: missing key \"bounds\"", fn);
  if (!cJSON_IsArray(x) || cJSON_GetArraySize(x) > (int)MS_MAX_BANDS)
    return fail(error, MS_ERROR_INVALID, "%s: validation.bounds: expected an array of at most %u bands", fn, MS_MAX_BANDS);
  m->nbands = 0;
  for (int i = 0; i < cJSON_GetArraySize(x); i++) {
    const cJSON *b = cJSON_GetArrayItem(x, i);
    g_autofree char *where = g_strdup_printf("validation.bounds[%d]", i);
    if (!cJSON_IsObject(b))
      return fail(error, MS_ERROR_INVALID, "%s: %s: expected an object, got %s", fn, where, ms_json_type_name(b));
    if (!ms_json_check_keys(b, bkeys, fn, where, error)) return FALSE;
    MsValidationBand *v = &m->bands[m->nbands];
    for (guint k = 0; k < G_N_ELEMENTS(bkeys) - 1; k++)
      if (!cJSON_GetObjectItemCaseSensitive(b, bkeys[k]))
        return fail(error, MS_ERROR_INVALID, "%s: %s: missing key \"%s\"", fn, where, bkeys[k]);
    g_autofree char *wb = g_strdup_printf("%s.bound", where);
    const char *name = ms_json_get_string(cJSON_GetObjectItemCaseSensitive(b, "bound"), fn, wb, error);
    if (!name) return FALSE;
    gboolean known = FALSE;
    for (guint k = 0; k < G_N_ELEMENTS(bounds); k++) known |= strcmp(name, bounds[k]) == 0;
    if (!known)
      return fail(error, MS_ERROR_INVALID,
                  "%s: %s: unknown bound \"%s\" (expected latency, global bandwidth, shared memory, launch or issue)", fn, wb, name);
    if (ms_model_band(m, name))
      return fail(error, MS_ERROR_INVALID, "%s: %s: bound \"%s\" appears twice", fn, wb, name);
    g_strlcpy(v->bound, name, sizeof v->bound);
    g_autofree char *wr = g_strdup_printf("%s.records", where);
    g_autofree char *wm = g_strdup_printf("%s.median_abs_error", where);
    g_autofree char *w1 = g_strdup_printf("%s.p10", where);
    g_autofree char *w9 = g_strdup_printf("%s.p90", where);
    if (!ms_json_get_uint(cJSON_GetObjectItemCaseSensitive(b, "records"), 1, G_MAXUINT32, fn, wr, &v->records, error) ||
        !ms_json_get_double(cJSON_GetObjectItemCaseSensitive(b, "median_abs_error"), fn, wm, &v->median_abs_error, error) ||
        !ms_json_get_double(cJSON_GetObjectItemCaseSensitive(b, "p10"), fn, w1, &v->p10, error) ||
        !ms_json_get_double(cJSON_GetObjectItemCaseSensitive(b, "p90"), fn, w9, &v->p90, error))
      return FALSE;
    if (v->median_abs_error < 0)
      return fail(error, MS_ERROR_INVALID, "%s: %s: must not be negative, got %g", fn, wm, v->median_abs_error);
    if (v->p10 < -1 || v->p10 > v->p90)
      return fail(error, MS_ERROR_INVALID, "%s: %s: p10 %g and p90 %g: expected -1 <= p10 <= p90", fn, where, v->p10, v->p90);
    m->nbands++;
  }
  return TRUE;
}

const MsValidationBand *ms_model_band(const MsModel *m, const char *bound) {
  for (guint32 i = 0; i < m->nbands; i++)
    if (strcmp(m->bands[i].bound, bound) == 0) return &m->bands[i];
  return NULL;
}

static gboolean parse_model(const cJSON *root, const char *fn, MsModel *m, GError **error) {
  if (!cJSON_IsObject(root))
    return fail(error, MS_ERROR_INVALID, "%s: a model file holds a JSON object, got %s", fn,
                ms_json_type_name(root));
  if (!ms_json_check_keys(root, model_keys, fn, "model", error)) return FALSE;

  const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, "name");
  if (it) {
    const char *s = ms_json_get_string(it, fn, "name", error);
    if (!s) return FALSE;
    g_free(m->name);
    m->name = g_strdup(s);
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "description");
  if (it && !ms_json_get_string(it, fn, "description", error)) return FALSE;
  it = cJSON_GetObjectItemCaseSensitive(root, "calibration");
  if (it && !cJSON_IsObject(it))
    return fail(error, MS_ERROR_INVALID, "%s: calibration: expected an object, got %s", fn,
                ms_json_type_name(it));
  it = cJSON_GetObjectItemCaseSensitive(root, "validation");
  if (it && !parse_validation(it, fn, m, error)) return FALSE;

  it = cJSON_GetObjectItemCaseSensitive(root, "model");
  if (!it) return fail(error, MS_ERROR_INVALID, "%s: missing key \"model\" (umm, dmm, hmm or async-hmm)", fn);
  const char *kind = ms_json_get_string(it, fn, "model", error);
  if (!kind) return FALSE;
  if (strcmp(kind, "umm") == 0) m->kind = MS_MODEL_UMM;
  else if (strcmp(kind, "dmm") == 0) m->kind = MS_MODEL_DMM;
  else if (strcmp(kind, "hmm") == 0) m->kind = MS_MODEL_HMM;
  else if (strcmp(kind, "async-hmm") == 0) m->kind = MS_MODEL_ASYNC_HMM;
  else
    return fail(error, MS_ERROR_INVALID,
                "%s: model: unknown model \"%s\" (expected umm, dmm, hmm or async-hmm)", fn, kind);
  gboolean hmm = ms_model_is_hmm(m);

  guint64 v;
  it = cJSON_GetObjectItemCaseSensitive(root, "width");
  if (!it) return fail(error, MS_ERROR_INVALID, "%s: missing key \"width\"", fn);
  if (!ms_json_get_uint(it, 1, MS_MAX_WIDTH, fn, "width", &v, error)) return FALSE;
  m->width = (guint32)v;
  m->group_words = m->width;

  if (hmm) {
    if (cJSON_GetObjectItemCaseSensitive(root, "latency"))
      return fail(error, MS_ERROR_INVALID,
                  "%s: latency: an %s model has shared_latency and global_latency, not latency",
                  fn, kind);
    it = cJSON_GetObjectItemCaseSensitive(root, "dmms");
    if (!it) return fail(error, MS_ERROR_INVALID, "%s: missing key \"dmms\" (d, the number of DMMs)", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_DMMS, fn, "dmms", &v, error)) return FALSE;
    m->dmms = (guint32)v;
    it = cJSON_GetObjectItemCaseSensitive(root, "shared_latency");
    m->shared_latency = 1;
    if (it && !ms_json_get_uint(it, 1, MS_MAX_LATENCY, fn, "shared_latency", &m->shared_latency, error))
      return FALSE;
    it = cJSON_GetObjectItemCaseSensitive(root, "global_latency");
    if (!it) return fail(error, MS_ERROR_INVALID, "%s: missing key \"global_latency\"", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_LATENCY, fn, "global_latency", &m->global_latency, error))
      return FALSE;
  } else {
    static const char *const hmm_only[] = {"dmms", "shared_latency", "global_latency", NULL};
    for (const char *const *k = hmm_only; *k; k++)
      if (cJSON_GetObjectItemCaseSensitive(root, *k))
        return fail(error, MS_ERROR_INVALID, "%s: %s: only hmm and async-hmm models have this key (a %s has latency)",
                    fn, *k, kind);
    it = cJSON_GetObjectItemCaseSensitive(root, "latency");
    if (!it) return fail(error, MS_ERROR_INVALID, "%s: missing key \"latency\"", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_LATENCY, fn, "latency", &m->latency, error)) return FALSE;
    m->dmms = 1;
    m->shared_latency = m->global_latency = m->latency;
  }

  it = cJSON_GetObjectItemCaseSensitive(root, "group_words");
  if (it) {
    if (m->kind == MS_MODEL_DMM)
      return fail(error, MS_ERROR_INVALID,
                  "%s: group_words: a dmm has banks, not address groups; group_words applies to umm and hmm kinds", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_LATENCY, fn, "group_words", &m->group_words, error))
      return FALSE;
  }
  /* GPU extensions */
  it = cJSON_GetObjectItemCaseSensitive(root, "global_rate");
  if (it) {
    if (m->kind == MS_MODEL_DMM)
      return fail(error, MS_ERROR_INVALID,
                  "%s: global_rate: a dmm has no global pipeline; global_rate applies to umm and hmm kinds", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_GLOBAL_RATE, fn, "global_rate", &v, error)) return FALSE;
    m->global_rate = (guint32)v;
  }
  static const char *const residency[] = {"resident_warps", "resident_blocks", "shared_words_per_dmm", NULL};
  guint64 *const residency_field[] = {&m->resident_warps, &m->resident_blocks, &m->shared_words_per_dmm};
  for (int i = 0; residency[i]; i++) {
    it = cJSON_GetObjectItemCaseSensitive(root, residency[i]);
    if (!it) continue;
    if (!hmm)
      return fail(error, MS_ERROR_INVALID, "%s: %s: only hmm and async-hmm models have DMMs to hold blocks",
                  fn, residency[i]);
    if (!ms_json_get_uint(it, 1, MS_MAX_JSON_INT, fn, residency[i], residency_field[i], error)) return FALSE;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "dmm_global_rate");
  if (it) {
    if (!hmm)
      return fail(error, MS_ERROR_INVALID, "%s: dmm_global_rate: only hmm and async-hmm models have DMMs", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_GLOBAL_RATE, fn, "dmm_global_rate", &v, error)) return FALSE;
    m->dmm_global_rate = (guint32)v;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "dmm_port_banks");
  if (it) {
    if (!m->dmm_global_rate) return fail(error, MS_ERROR_INVALID, "%s: dmm_port_banks: needs dmm_global_rate", fn);
    if (!ms_json_get_uint(it, 1, 64, fn, "dmm_port_banks", &v, error)) return FALSE;
    m->dmm_port_banks = (guint32)v;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "dmm_port_shared");
  if (it) {
    if (!cJSON_IsBool(it)) return fail(error, MS_ERROR_INVALID, "%s: dmm_port_shared: expected true or false", fn);
    if (!m->dmm_port_banks) return fail(error, MS_ERROR_INVALID, "%s: dmm_port_shared: needs dmm_port_banks", fn);
    m->dmm_port_shared = cJSON_IsTrue(it);
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "launch_units");
  if (it && !ms_json_get_uint(it, 0, MS_MAX_LATENCY, fn, "launch_units", &m->launch_units, error))
    return FALSE;
  it = cJSON_GetObjectItemCaseSensitive(root, "instruction_units");
  if (it && !ms_json_get_uint(it, 0, MS_MAX_LATENCY, fn, "instruction_units", &m->instruction_units, error))
    return FALSE;
  it = cJSON_GetObjectItemCaseSensitive(root, "issue_rate");
  if (it) {
    if (!hmm) return fail(error, MS_ERROR_INVALID, "%s: issue_rate: only hmm and async-hmm models have DMMs", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_GLOBAL_RATE, fn, "issue_rate", &v, error)) return FALSE;
    m->issue_rate = (guint32)v;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "shuffle_units");
  if (it && !ms_json_get_uint(it, 0, MS_MAX_LATENCY, fn, "shuffle_units", &m->shuffle_units, error))
    return FALSE;
  it = cJSON_GetObjectItemCaseSensitive(root, "block_start_units");
  if (it) {
    if (!m->resident_warps && !m->resident_blocks)
      return fail(error, MS_ERROR_INVALID,
                  "%s: block_start_units: blocks start as DMMs make room; it needs resident_warps or resident_blocks", fn);
    if (!ms_json_get_uint(it, 0, MS_MAX_LATENCY, fn, "block_start_units", &m->block_start_units, error)) return FALSE;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "barrier_units");
  if (it && !ms_json_get_uint(it, 0, MS_MAX_LATENCY, fn, "barrier_units", &m->barrier_units, error)) return FALSE;
  it = cJSON_GetObjectItemCaseSensitive(root, "barrier_warp_units");
  if (it && !ms_json_get_uint(it, 0, MS_MAX_LATENCY, fn, "barrier_warp_units", &m->barrier_warp_units, error))
    return FALSE;
  /* L2: all three or none */
  static const char *const l2keys[] = {"l2_words", "l2_latency", "l2_rate", NULL};
  int l2n = 0;
  for (int i = 0; l2keys[i]; i++) l2n += cJSON_GetObjectItemCaseSensitive(root, l2keys[i]) != NULL;
  if (l2n) {
    if (m->kind == MS_MODEL_DMM)
      return fail(error, MS_ERROR_INVALID, "%s: l2_words: a dmm has no global memory; the l2 keys apply to umm and hmm kinds", fn);
    for (int i = 0; l2keys[i]; i++)
      if (!cJSON_GetObjectItemCaseSensitive(root, l2keys[i]))
        return fail(error, MS_ERROR_INVALID, "%s: missing key \"%s\" (l2_words, l2_latency and l2_rate go together)", fn, l2keys[i]);
    if (!ms_json_get_uint(cJSON_GetObjectItemCaseSensitive(root, "l2_words"), 1, MS_MAX_JSON_INT, fn, "l2_words", &m->l2_words, error) ||
        !ms_json_get_uint(cJSON_GetObjectItemCaseSensitive(root, "l2_latency"), 1, MS_MAX_LATENCY, fn, "l2_latency", &m->l2_latency, error) ||
        !ms_json_get_uint(cJSON_GetObjectItemCaseSensitive(root, "l2_rate"), 1, MS_MAX_GLOBAL_RATE, fn, "l2_rate", &v, error))
      return FALSE;
    m->l2_rate = (guint32)v;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "read_window");
  if (it) {
    if (!ms_json_get_uint(it, 1, MS_MAX_READ_WINDOW, fn, "read_window", &v, error)) return FALSE;
    m->read_window = (guint32)v;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "posted_writes");
  if (it) {
    if (!cJSON_IsBool(it))
      return fail(error, MS_ERROR_INVALID, "%s: posted_writes: expected true or false, got %s", fn, ms_json_type_name(it));
    m->posted_writes = cJSON_IsTrue(it);
  }
  static const char *const pwkeys[] = {"partial_write_stages", "l2_partial_write_stages"};
  for (int i = 0; i < 2; i++) {
    it = cJSON_GetObjectItemCaseSensitive(root, pwkeys[i]);
    if (!it) continue;
    if (m->kind == MS_MODEL_DMM)
      return fail(error, MS_ERROR_INVALID, "%s: %s: a dmm has no global memory; it applies to umm and hmm kinds", fn, pwkeys[i]);
    if (i == 1 && !m->l2_words)
      return fail(error, MS_ERROR_INVALID, "%s: l2_partial_write_stages: needs the l2 keys (l2_words, l2_latency, l2_rate)", fn);
    const guint64 max = MS_MAX_WARP_STAGES / m->width - 1;
    if (!ms_json_get_uint(it, 0, max, fn, pwkeys[i], &v, error)) return FALSE;
    if (i == 0) m->partial_write_stages = (guint32)v;
    else m->l2_partial_write_stages = (guint32)v;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "l2_write_rate");
  if (it) {
    if (!m->l2_words)
      return fail(error, MS_ERROR_INVALID, "%s: l2_write_rate: needs the l2 keys (l2_words, l2_latency, l2_rate)", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_GLOBAL_RATE, fn, "l2_write_rate", &v, error)) return FALSE;
    m->l2_write_rate = (guint32)v;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "l2_ways");
  if (it) {
    if (!m->l2_words)
      return fail(error, MS_ERROR_INVALID, "%s: l2_ways: needs the l2 keys (l2_words, l2_latency, l2_rate)", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_L2_WAYS, fn, "l2_ways", &v, error)) return FALSE;
    if (m->partial_write_stages)
      return fail(error, MS_ERROR_INVALID,
                  "%s: l2_ways: the L2 cache charges a partial write that misses a fill of its group; "
                  "leave out partial_write_stages", fn);
    m->l2_ways = (guint32)v;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "l2_partitions");
  if (it) {
    if (!m->l2_ways) return fail(error, MS_ERROR_INVALID, "%s: l2_partitions: needs l2_ways", fn);
    if (m->kind != MS_MODEL_HMM && m->kind != MS_MODEL_ASYNC_HMM)
      return fail(error, MS_ERROR_INVALID, "%s: l2_partitions: blocks choose a partition; it applies to hmm kinds", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_L2_PARTITIONS, fn, "l2_partitions", &v, error)) return FALSE;
    if (m->l2_words / m->group_words / m->l2_ways < v)
      return fail(error, MS_ERROR_INVALID,
                  "%s: l2_partitions: %" G_GUINT64_FORMAT " partitions leave a partition less than one set "
                  "(l2_words / group_words / l2_ways = %" G_GUINT64_FORMAT ")",
                  fn, v, (guint64)(m->l2_words / m->group_words / m->l2_ways));
    m->l2_partitions = (guint32)v;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "l2_line_words");
  if (it) {
    if (!m->l2_ways) return fail(error, MS_ERROR_INVALID, "%s: l2_line_words: needs l2_ways", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_LATENCY, fn, "l2_line_words", &v, error)) return FALSE;
    const guint64 gw = m->group_words ? m->group_words : 1, q = v / gw;
    if (v % gw || q > 16 || (q & (q - 1)))
      return fail(error, MS_ERROR_INVALID,
                  "%s: l2_line_words: %" G_GUINT64_FORMAT " is not group_words (%" G_GUINT64_FORMAT ") times 1, 2, 4, 8 or 16",
                  fn, v, gw);
    const guint64 parts = m->l2_partitions ? m->l2_partitions : 1;
    if (m->l2_words / v / m->l2_ways < parts)
      return fail(error, MS_ERROR_INVALID,
                  "%s: l2_line_words: lines of %" G_GUINT64_FORMAT " words leave a partition less than one set", fn, v);
    m->l2_line_words = v;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "l2_hashed_sets");
  if (it) {
    if (!cJSON_IsBool(it)) return fail(error, MS_ERROR_INVALID, "%s: l2_hashed_sets: expected true or false", fn);
    if (!m->l2_ways) return fail(error, MS_ERROR_INVALID, "%s: l2_hashed_sets: needs l2_ways", fn);
    m->l2_hashed_sets = cJSON_IsTrue(it);
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "l2_home_partitions");
  if (it) {
    if (!cJSON_IsBool(it)) return fail(error, MS_ERROR_INVALID, "%s: l2_home_partitions: expected true or false", fn);
    if (m->l2_partitions < 2)
      return fail(error, MS_ERROR_INVALID, "%s: l2_home_partitions: needs l2_partitions of 2 or more", fn);
    m->l2_home_partitions = cJSON_IsTrue(it);
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "l2_warm");
  if (it) {
    if (!cJSON_IsBool(it)) return fail(error, MS_ERROR_INVALID, "%s: l2_warm: expected true or false", fn);
    if (!m->l2_ways) return fail(error, MS_ERROR_INVALID, "%s: l2_warm: needs l2_ways", fn);
    m->l2_warm = cJSON_IsTrue(it);
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "l2_posted_write_backs");
  if (it) {
    if (!cJSON_IsBool(it)) return fail(error, MS_ERROR_INVALID, "%s: l2_posted_write_backs: expected true or false", fn);
    if (!m->l2_ways) return fail(error, MS_ERROR_INVALID, "%s: l2_posted_write_backs: needs l2_ways", fn);
    m->l2_posted_write_backs = cJSON_IsTrue(it);
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "l2_posted_fences");
  if (it) {
    if (!cJSON_IsBool(it)) return fail(error, MS_ERROR_INVALID, "%s: l2_posted_fences: expected true or false", fn);
    if (!m->l2_ways) return fail(error, MS_ERROR_INVALID, "%s: l2_posted_fences: needs l2_ways", fn);
    m->l2_posted_fences = cJSON_IsTrue(it);
  }
  /* DRAM rows: dram_row_words and dram_lone_rate go together, on the L2 cache's DRAM slots */
  it = cJSON_GetObjectItemCaseSensitive(root, "dram_row_words");
  const cJSON *lone = cJSON_GetObjectItemCaseSensitive(root, "dram_lone_rate");
  if (it || lone) {
    const char *key = it ? "dram_row_words" : "dram_lone_rate";
    if (!m->l2_ways) return fail(error, MS_ERROR_INVALID, "%s: %s: needs l2_ways (the L2 cache's DRAM slots)", fn, key);
    if (!it) return fail(error, MS_ERROR_INVALID, "%s: dram_lone_rate: needs dram_row_words", fn);
    if (!lone) return fail(error, MS_ERROR_INVALID, "%s: dram_row_words: needs dram_lone_rate", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_LATENCY, fn, "dram_row_words", &v, error)) return FALSE;
    const guint64 gw = m->group_words ? m->group_words : 1;
    if (v % gw)
      return fail(error, MS_ERROR_INVALID,
                  "%s: dram_row_words: %" G_GUINT64_FORMAT " is not a multiple of group_words (%" G_GUINT64_FORMAT ")", fn,
                  v, gw);
    m->dram_row_words = v;
    const guint64 g = m->global_rate > 1 ? m->global_rate : 1;
    if (!ms_json_get_uint(lone, 1, g, fn, "dram_lone_rate", &v, error)) return FALSE;
    /* a warp's DRAM slots are counted in 1 / (global_rate x dram_lone_rate) time units, at
     * most 2 x width slots of global_rate units each, in 16 bits */
    if (2 * (guint64)m->width * g > G_MAXUINT16)
      return fail(error, MS_ERROR_INVALID,
                  "%s: dram_lone_rate: needs 2 x width x global_rate <= 65535 (here %" G_GUINT64_FORMAT ")", fn,
                  2 * (guint64)m->width * g);
    m->dram_lone_rate = (guint32)v;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "dram_lone_write_rate");
  if (it) {
    if (!m->dram_row_words) return fail(error, MS_ERROR_INVALID, "%s: dram_lone_write_rate: needs dram_row_words", fn);
    const guint64 g = m->global_rate > 1 ? m->global_rate : 1, r = m->dram_lone_rate;
    if (!ms_json_get_uint(it, 1, g, fn, "dram_lone_write_rate", &v, error)) return FALSE;
    /* the slots in 1 / (global_rate x dram_lone_rate x this) time units: a slot at most
     * global_rate x max(dram_lone_rate, this) of them, 2 x width slots a warp, in 16 bits */
    const guint64 unit = g * MAX(r, v);
    if (2 * (guint64)m->width * unit > G_MAXUINT16)
      return fail(error, MS_ERROR_INVALID,
                  "%s: dram_lone_write_rate: needs 2 x width x global_rate x max(dram_lone_rate, dram_lone_write_rate) <= "
                  "65535 (here %" G_GUINT64_FORMAT ")",
                  fn, 2 * (guint64)m->width * unit);
    m->dram_lone_write_rate = (guint32)v;
  }
  /* L1: l1_words and l1_latency go together; l1_ways needs them */
  it = cJSON_GetObjectItemCaseSensitive(root, "l1_words");
  const cJSON *l1lat = cJSON_GetObjectItemCaseSensitive(root, "l1_latency");
  const cJSON *l1ways = cJSON_GetObjectItemCaseSensitive(root, "l1_ways");
  if (it || l1lat || l1ways) {
    if (!hmm)
      return fail(error, MS_ERROR_INVALID, "%s: %s: only hmm and async-hmm models have DMMs with an L1", fn,
                  it ? "l1_words" : l1lat ? "l1_latency" : "l1_ways");
    if (!it) return fail(error, MS_ERROR_INVALID, "%s: missing key \"l1_words\" (%s needs it)", fn, l1lat ? "l1_latency" : "l1_ways");
    if (!l1lat) return fail(error, MS_ERROR_INVALID, "%s: missing key \"l1_latency\" (l1_words and l1_latency go together)", fn);
    if (!ms_json_get_uint(it, 1, MS_MAX_JSON_INT, fn, "l1_words", &m->l1_words, error) ||
        !ms_json_get_uint(l1lat, 1, MS_MAX_LATENCY, fn, "l1_latency", &m->l1_latency, error))
      return FALSE;
    m->l1_ways = 16;
    if (l1ways) {
      if (!ms_json_get_uint(l1ways, 1, MS_MAX_L1_WAYS, fn, "l1_ways", &v, error)) return FALSE;
      m->l1_ways = (guint32)v;
    }
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "global_loaded_latency");
  if (it) {
    if (m->kind == MS_MODEL_DMM)
      return fail(error, MS_ERROR_INVALID, "%s: global_loaded_latency: a dmm has no global memory; it applies to umm and hmm kinds", fn);
    if (!parse_curve(it, fn, "global_loaded_latency", &m->global_loaded_latency, error)) return FALSE;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "l2_loaded_latency");
  if (it) {
    if (!m->l2_words)
      return fail(error, MS_ERROR_INVALID, "%s: l2_loaded_latency: needs the l2 keys (l2_words, l2_latency, l2_rate)", fn);
    if (!parse_curve(it, fn, "l2_loaded_latency", &m->l2_loaded_latency, error)) return FALSE;
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "time_unit_ns");
  if (it) {
    if (!ms_json_get_double(it, fn, "time_unit_ns", &m->time_unit_ns, error)) return FALSE;
    if (m->time_unit_ns <= 0)
      return fail(error, MS_ERROR_INVALID, "%s: time_unit_ns: must be positive, got %g", fn, m->time_unit_ns);
  }
  it = cJSON_GetObjectItemCaseSensitive(root, "launch_ns");
  if (it) {
    if (!ms_json_get_double(it, fn, "launch_ns", &m->launch_ns, error)) return FALSE;
    if (m->launch_ns < 0)
      return fail(error, MS_ERROR_INVALID, "%s: launch_ns: must not be negative, got %g", fn, m->launch_ns);
  }
  return TRUE;
}

MsModel *ms_model_parse(const char *text, gsize length, const char *filename, GError **error) {
  cJSON *root = ms_json_parse(text, length, filename, error);
  if (!root) return NULL;
  MsModel *m = ms_model_new(MS_MODEL_UMM, 1, 1, 1, 1, 1);
  gboolean ok = parse_model(root, filename, m, error);
  cJSON_Delete(root);
  if (!ok) {
    ms_model_free(m);
    return NULL;
  }
  return m;
}

MsModel *ms_model_load(const char *path, GError **error) {
  gsize len;
  char *text = ms_json_read_file(path, MODEL_MAX_BYTES, &len, error);
  if (!text) return NULL;
  MsModel *m = ms_model_parse(text, len, path, error);
  g_free(text);
  return m;
}
