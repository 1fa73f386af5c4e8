/* test-errors.c: bad models and traces, each with the exact message memsim gives.
 *
 * Each case writes its text to m.json or t.json in a fresh temporary working directory (so
 * messages name a stable path), loads it through the public API and compares the GError
 * message.  Trace cases that open cleanly are simulated on a DMM w = 4, l = 5 (block_threads
 * is checked against w there). */
#include "ms-test-util.h"
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  const char *name;
  const char *text; /* NULL: generated (deep nesting) */
  const char *expected;
  gsize length;     /* 0: strlen(text) */
} BadInput;

static char *tmp_dir;

static void enter_tmp(void) {
  GError *err = NULL;
  tmp_dir = g_dir_make_tmp("memsim-errors-XXXXXX", &err);
  cr_assert_not_null(tmp_dir, "%s", err ? err->message : "?");
  cr_assert_eq(chdir(tmp_dir), 0);
}

static void leave_tmp(void) {
  unlink("m.json");
  unlink("t.json");
  unlink("t.bin");
  if (chdir("/") == 0 && tmp_dir) rmdir(tmp_dir);
  g_free(tmp_dir);
}

static char *nested(const char *prefix, int open, int close, const char *suffix) {
  GString *s = g_string_new(prefix);
  for (int i = 0; i < open; i++) g_string_append_c(s, '[');
  for (int i = 0; i < close; i++) g_string_append_c(s, ']');
  g_string_append(s, suffix);
  return g_string_free(s, FALSE);
}

static void write_case(const char *path, const BadInput *c) {
  g_autofree char *gen = NULL;
  const char *text = c->text;
  if (!text) {
    if (strcmp(path, "t.json") == 0)
      text = gen = nested("{\"memsim_trace\":1,\"threads\":4,\"steps\":", 5000, 5000, "}");
    else
      text = gen = nested("", 5000, strcmp(c->name, "nesting_closed") == 0 ? 5000 : 0, "");
  }
  GError *err = NULL;
  cr_assert(g_file_set_contents(path, text, c->length ? (gssize)c->length : -1, &err), "%s",
            err ? err->message : "?");
}

static void expect_message(const BadInput *c, GError *err) {
  cr_assert_not_null(err, "%s: accepted", c->name);
  cr_expect_eq(err->domain, MS_ERROR, "%s: wrong domain", c->name);
  cr_expect_str_eq(err->message, c->expected, "%s:\n  got      %s\n  expected %s", c->name,
                   err->message, c->expected);
  g_error_free(err);
}

/* ---- models ---- */

static const BadInput model_cases[] = {
      {"empty", "",
       "m.json: file is empty"},
      {"invalid_json", "{\"model\": \"dmm\",\n \"width\": 4,,\n}",
       "m.json:2:14: invalid JSON at the end of the line (or nesting deeper than 1000)"},
      {"not_object", "[1]",
       "m.json: a model file holds a JSON object, got an array"},
      {"missing_model", "{\"width\":4,\"latency\":5}",
       "m.json: missing key \"model\" (umm, dmm, hmm or async-hmm)"},
      {"unknown_key", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"latnecy\":3}",
       "m.json: model: unknown key \"latnecy\" (known: name, model, width, latency, dmms, shared_latency, global_latency, group_words, time_unit_ns, launch_ns, description, calibration, global_rate, resident_warps, resident_blocks, shared_words_per_dmm, launch_units, l2_words, l2_latency, l2_rate, read_window, posted_writes, partial_write_stages, l2_partial_write_stages, l2_write_rate, l2_ways, l2_partitions, block_start_units, barrier_units, barrier_warp_units, l2_line_words, l2_hashed_sets, l2_warm, l2_home_partitions, l2_posted_write_backs, l2_posted_fences, dram_row_words, dram_lone_rate, dram_lone_write_rate, dmm_global_rate, dmm_port_banks, dmm_port_shared, shuffle_units, instruction_units, issue_rate, l1_words, l1_latency, l1_ways, global_loaded_latency, l2_loaded_latency, validation)"},
      {"duplicate", "{\"model\":\"dmm\",\"width\":4,\"width\":8,\"latency\":5}",
       "m.json: model: duplicate key \"width\""},
      {"zero_width", "{\"model\":\"dmm\",\"width\":0,\"latency\":5}",
       "m.json: width: 0 is out of range [1, 4096]"},
      {"neg_width", "{\"model\":\"dmm\",\"width\":-4,\"latency\":5}",
       "m.json: width: -4 is out of range [1, 4096]"},
      {"frac_width", "{\"model\":\"dmm\",\"width\":4.5,\"latency\":5}",
       "m.json: width: expected an integer, got 4.5"},
      {"str_width", "{\"model\":\"dmm\",\"width\":\"4\",\"latency\":5}",
       "m.json: width: expected an integer, got a string"},
      {"big_width", "{\"model\":\"dmm\",\"width\":5000,\"latency\":5}",
       "m.json: width: 5000 is out of range [1, 4096]"},
      {"huge_latency", "{\"model\":\"umm\",\"width\":4,\"latency\":1e300}",
       "m.json: latency: 1.0000000000000001e+300 is 2^53 or beyond, where JSON numbers stop being exact"},
      {"2p53", "{\"model\":\"umm\",\"width\":4,\"latency\":9007199254740993}",
       "m.json: latency: 9007199254740992 is 2^53 or beyond, where JSON numbers stop being exact"},
      {"latency_2p40", "{\"model\":\"umm\",\"width\":4,\"latency\":1099511627776}",
       "m.json: latency: 1099511627776 is out of range [1, 4294967296]"},
      {"zero_latency", "{\"model\":\"umm\",\"width\":4,\"latency\":0}",
       "m.json: latency: 0 is out of range [1, 4294967296]"},
      {"missing_width", "{\"model\":\"dmm\",\"latency\":5}",
       "m.json: missing key \"width\""},
      {"missing_latency", "{\"model\":\"dmm\",\"width\":4}",
       "m.json: missing key \"latency\""},
      {"unknown_model", "{\"model\":\"xmm\",\"width\":4,\"latency\":5}",
       "m.json: model: unknown model \"xmm\" (expected umm, dmm, hmm or async-hmm)"},
      {"model_number", "{\"model\":3,\"width\":4,\"latency\":5}",
       "m.json: model: expected a string, got a number"},
      {"hmm_missing_dmms", "{\"model\":\"hmm\",\"width\":4,\"global_latency\":5}",
       "m.json: missing key \"dmms\" (d, the number of DMMs)"},
      {"hmm_latency", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"latency\":5,\"global_latency\":5}",
       "m.json: latency: an hmm model has shared_latency and global_latency, not latency"},
      {"dmm_dmms", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"dmms\":2}",
       "m.json: dmms: only hmm and async-hmm models have this key (a dmm has latency)"},
      {"hmm_no_global", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2}",
       "m.json: missing key \"global_latency\""},
      {"dmm_group_words", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"group_words\":8}",
       "m.json: group_words: a dmm has banks, not address groups; group_words applies to umm and hmm kinds"},
      {"zero_dmms", "{\"model\":\"async-hmm\",\"width\":4,\"dmms\":0,\"global_latency\":5}",
       "m.json: dmms: 0 is out of range [1, 65536]"},
      {"nesting", NULL, "m.json:1:1001: invalid JSON near '[[[[[[[[[[[[[[[[' (or nesting deeper than 1000)"},
      {"nesting_closed", NULL, "m.json:1:1001: invalid JSON near '[[[[[[[[[[[[[[[[' (or nesting deeper than 1000)"},
      {"name_number", "{\"name\":1,\"model\":\"dmm\",\"width\":4,\"latency\":5}",
       "m.json: name: expected a string, got a number"},
      {"trailing", "{\"model\":\"dmm\",\"width\":4,\"latency\":5} x",
       "m.json:1:39: invalid JSON: unexpected text after the top-level value"},
      {"bool_width", "{\"model\":\"dmm\",\"width\":true,\"latency\":5}",
       "m.json: width: expected an integer, got a boolean"},
      {"nan", "{\"model\":\"dmm\",\"width\":NaN,\"latency\":5}",
       "m.json:1:24: invalid JSON near 'NaN,\"latency\":5}' (or nesting deeper than 1000)"},
      {"time_unit_neg", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"time_unit_ns\":-1}",
       "m.json: time_unit_ns: must be positive, got -1"},
      {"null_width", "{\"model\":\"dmm\",\"width\":null,\"latency\":5}",
       "m.json: width: expected an integer, got null"},
      /* GPU extensions */
      {"zero_read_window", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"read_window\":0}",
       "m.json: read_window: 0 is out of range [1, 64]"},
      {"big_read_window", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"read_window\":65}",
       "m.json: read_window: 65 is out of range [1, 64]"},
      {"string_read_window", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"read_window\":\"4\"}",
       "m.json: read_window: expected an integer, got a string"},
      {"number_posted_writes", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"posted_writes\":1}",
       "m.json: posted_writes: expected true or false, got a number"},
      {"dmm_partial_writes", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"partial_write_stages\":1}",
       "m.json: partial_write_stages: a dmm has no global memory; it applies to umm and hmm kinds"},
      {"negative_partial_writes", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"partial_write_stages\":-1}",
       "m.json: partial_write_stages: -1 is out of range [0, 16382]"},
      {"wide_partial_writes", "{\"model\":\"umm\",\"width\":4096,\"latency\":5,\"partial_write_stages\":15}",
       "m.json: partial_write_stages: 15 is out of range [0, 14]"},
      {"bool_partial_writes", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"partial_write_stages\":true}",
       "m.json: partial_write_stages: expected an integer, got a boolean"},
      {"l2_partial_writes_without_l2", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l2_partial_write_stages\":1}",
       "m.json: l2_partial_write_stages: needs the l2 keys (l2_words, l2_latency, l2_rate)"},
      {"l2_write_rate_zero", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l2_words\":64,\"l2_latency\":3,\"l2_rate\":2,\"l2_write_rate\":0}",
       "m.json: l2_write_rate: 0 is out of range [1, 4096]"},
      {"l2_write_rate_fraction", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l2_words\":64,\"l2_latency\":3,\"l2_rate\":2,\"l2_write_rate\":1.5}",
       "m.json: l2_write_rate: expected an integer, got 1.5"},
      {"l2_write_rate_without_l2", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l2_write_rate\":1}",
       "m.json: l2_write_rate: needs the l2 keys (l2_words, l2_latency, l2_rate)"},
      {"l2_ways_without_l2", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l2_ways\":4}",
       "m.json: l2_ways: needs the l2 keys (l2_words, l2_latency, l2_rate)"},
      {"zero_l2_ways", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":0}",
       "m.json: l2_ways: 0 is out of range [1, 64]"},
      {"big_l2_ways", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":65}",
       "m.json: l2_ways: 65 is out of range [1, 64]"},
      {"string_l2_ways", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":\"16\"}",
       "m.json: l2_ways: expected an integer, got a string"},
      {"l2_ways_with_partial_writes", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"partial_write_stages\":1,\"l2_ways\":16}",
       "m.json: l2_ways: the L2 cache charges a partial write that misses a fill of its group; leave out partial_write_stages"},
      {"l2_partitions_without_l2_ways", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_partitions\":2}",
       "m.json: l2_partitions: needs l2_ways"},
      {"umm_l2_partitions", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"l2_partitions\":2}",
       "m.json: l2_partitions: blocks choose a partition; it applies to hmm kinds"},
      {"zero_l2_partitions", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"l2_partitions\":0}",
       "m.json: l2_partitions: 0 is out of range [1, 16]"},
      {"big_l2_partitions", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":1,\"l2_partitions\":17}",
       "m.json: l2_partitions: 17 is out of range [1, 16]"},
      {"l2_partitions_below_a_set", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":4,\"l2_partitions\":8}",
       "m.json: l2_partitions: 8 partitions leave a partition less than one set (l2_words / group_words / l2_ways = 6)"},
      {"block_start_units_without_residency", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"block_start_units\":3}",
       "m.json: block_start_units: blocks start as DMMs make room; it needs resident_warps or resident_blocks"},
      {"negative_block_start_units", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"resident_blocks\":2,\"block_start_units\":-1}",
       "m.json: block_start_units: -1 is out of range [0, 4294967296]"},
      {"fractional_block_start_units", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"resident_warps\":8,\"block_start_units\":1.5}",
       "m.json: block_start_units: expected an integer, got 1.5"},
      {"l2_line_words_without_l2_ways", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_line_words\":8}",
       "m.json: l2_line_words: needs l2_ways"},
      {"l2_line_words_not_a_multiple", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"l2_line_words\":6}",
       "m.json: l2_line_words: 6 is not group_words (4) times 1, 2, 4, 8 or 16"},
      {"l2_line_words_too_long", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":1,\"l2_line_words\":128}",
       "m.json: l2_line_words: 128 is not group_words (4) times 1, 2, 4, 8 or 16"},
      {"l2_line_words_below_a_set", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"l2_partitions\":2,\"l2_line_words\":32}",
       "m.json: l2_line_words: lines of 32 words leave a partition less than one set"},
      {"l2_hashed_sets_without_l2_ways", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_hashed_sets\":true}",
       "m.json: l2_hashed_sets: needs l2_ways"},
      {"l2_warm_without_l2_ways", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_warm\":true}",
       "m.json: l2_warm: needs l2_ways"},
      {"l2_warm_not_a_bool", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"l2_warm\":1}",
       "m.json: l2_warm: expected true or false"},
      {"l2_home_partitions_without_partitions", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"l2_home_partitions\":true}",
       "m.json: l2_home_partitions: needs l2_partitions of 2 or more"},
      {"l2_home_partitions_not_a_bool", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"l2_partitions\":2,\"l2_home_partitions\":\"yes\"}",
       "m.json: l2_home_partitions: expected true or false"},
      {"l2_posted_write_backs_without_l2_ways", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_posted_write_backs\":true}",
       "m.json: l2_posted_write_backs: needs l2_ways"},
      {"l2_posted_write_backs_number", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"l2_posted_write_backs\":1}",
       "m.json: l2_posted_write_backs: expected true or false"},
      {"barrier_units_negative", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"barrier_units\":-1}",
       "m.json: barrier_units: -1 is out of range [0, 4294967296]"},
      {"barrier_warp_units_fraction", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"barrier_warp_units\":1.5}",
       "m.json: barrier_warp_units: expected an integer, got 1.5"},
      {"l2_posted_fences_without_l2_ways", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_posted_fences\":true}",
       "m.json: l2_posted_fences: needs l2_ways"},
      {"l2_posted_fences_string", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"l2_posted_fences\":\"yes\"}",
       "m.json: l2_posted_fences: expected true or false"},
      {"dram_lone_write_rate_without_rows", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"global_rate\":3,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"dram_lone_write_rate\":2}",
       "m.json: dram_lone_write_rate: needs dram_row_words"},
      {"dram_lone_write_rate_above_global_rate", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"global_rate\":3,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"dram_row_words\":8,\"dram_lone_rate\":2,\"dram_lone_write_rate\":4}",
       "m.json: dram_lone_write_rate: 4 is out of range [1, 3]"},
      {"dram_lone_write_rate_units", "{\"model\":\"hmm\",\"width\":32,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"global_rate\":1000,\"l2_words\":1000,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"dram_row_words\":8,\"dram_lone_rate\":1,\"dram_lone_write_rate\":2}",
       "m.json: dram_lone_write_rate: needs 2 x width x global_rate x max(dram_lone_rate, dram_lone_write_rate) <= 65535 (here 128000)"},
      {"dram_row_words_without_l2_ways", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"global_rate\":3,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"dram_row_words\":8,\"dram_lone_rate\":2}",
       "m.json: dram_row_words: needs l2_ways (the L2 cache's DRAM slots)"},
      {"dram_lone_rate_without_rows", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"global_rate\":3,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"dram_lone_rate\":2}",
       "m.json: dram_lone_rate: needs dram_row_words"},
      {"dram_row_words_without_lone_rate", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"global_rate\":3,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"dram_row_words\":8}",
       "m.json: dram_row_words: needs dram_lone_rate"},
      {"dram_row_words_not_groups", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"global_rate\":3,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"dram_row_words\":6,\"dram_lone_rate\":2}",
       "m.json: dram_row_words: 6 is not a multiple of group_words (4)"},
      {"dram_lone_rate_above_global_rate", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"global_rate\":3,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"dram_row_words\":8,\"dram_lone_rate\":4}",
       "m.json: dram_lone_rate: 4 is out of range [1, 3]"},
      {"dram_lone_rate_fraction", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"global_rate\":3,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"dram_row_words\":8,\"dram_lone_rate\":1.5}",
       "m.json: dram_lone_rate: expected an integer, got 1.5"},
      {"dram_lone_rate_units_overflow", "{\"model\":\"umm\",\"width\":32,\"latency\":5,\"group_words\":32,\"global_rate\":1024,\"l2_words\":10000,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"dram_row_words\":256,\"dram_lone_rate\":512}",
       "m.json: dram_lone_rate: needs 2 x width x global_rate <= 65535 (here 65536)"},
      {"l2_hashed_sets_not_a_bool", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"group_words\":4,\"l2_words\":100,\"l2_latency\":3,\"l2_rate\":2,\"l2_ways\":2,\"l2_hashed_sets\":1}",
       "m.json: l2_hashed_sets: expected true or false"},
      {"dmm_global_rate_on_umm", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"dmm_global_rate\":1}",
       "m.json: dmm_global_rate: only hmm and async-hmm models have DMMs"},
      {"zero_dmm_global_rate", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"dmm_global_rate\":0}",
       "m.json: dmm_global_rate: 0 is out of range [1, 4096]"},
      {"dmm_port_banks_without_port", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"dmm_port_banks\":4}",
       "m.json: dmm_port_banks: needs dmm_global_rate"},
      {"zero_dmm_port_banks", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"dmm_global_rate\":1,\"dmm_port_banks\":0}",
       "m.json: dmm_port_banks: 0 is out of range [1, 64]"},
      {"huge_dmm_port_banks", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"dmm_global_rate\":1,\"dmm_port_banks\":65}",
       "m.json: dmm_port_banks: 65 is out of range [1, 64]"},
      {"fractional_dmm_port_banks", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"dmm_global_rate\":1,\"dmm_port_banks\":2.5}",
       "m.json: dmm_port_banks: expected an integer, got 2.5"},
      {"dmm_port_shared_without_banks", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"dmm_global_rate\":1,\"dmm_port_shared\":true}",
       "m.json: dmm_port_shared: needs dmm_port_banks"},
      {"numeric_dmm_port_shared", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"dmm_global_rate\":1,\"dmm_port_banks\":2,\"dmm_port_shared\":1}",
       "m.json: dmm_port_shared: expected true or false"},
      {"fractional_dmm_global_rate", "{\"model\":\"async-hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"dmm_global_rate\":0.5}",
       "m.json: dmm_global_rate: expected an integer, got 0.5"},
      {"dmm_global_rate", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"global_rate\":2}",
       "m.json: global_rate: a dmm has no global pipeline; global_rate applies to umm and hmm kinds"},
      {"zero_global_rate", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"global_rate\":0}",
       "m.json: global_rate: 0 is out of range [1, 4096]"},
      {"big_global_rate", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"global_rate\":4097}",
       "m.json: global_rate: 4097 is out of range [1, 4096]"},
      {"frac_global_rate", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"global_rate\":1.5}",
       "m.json: global_rate: expected an integer, got 1.5"},
      {"str_global_rate", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"global_rate\":\"8\"}",
       "m.json: global_rate: expected an integer, got a string"},
      {"umm_resident_warps", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"resident_warps\":8}",
       "m.json: resident_warps: only hmm and async-hmm models have DMMs to hold blocks"},
      {"dmm_resident_blocks", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"resident_blocks\":8}",
       "m.json: resident_blocks: only hmm and async-hmm models have DMMs to hold blocks"},
      {"dmm_shared_words", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"shared_words_per_dmm\":8}",
       "m.json: shared_words_per_dmm: only hmm and async-hmm models have DMMs to hold blocks"},
      {"zero_resident_warps", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"resident_warps\":0}",
       "m.json: resident_warps: 0 is out of range [1, 9007199254740991]"},
      {"neg_resident_blocks", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"resident_blocks\":-1}",
       "m.json: resident_blocks: -1 is out of range [1, 9007199254740991]"},
      {"frac_shared_words", "{\"model\":\"async-hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"shared_words_per_dmm\":2.5}",
       "m.json: shared_words_per_dmm: expected an integer, got 2.5"},
      {"neg_launch_units", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"launch_units\":-3}",
       "m.json: launch_units: -3 is out of range [0, 4294967296]"},
      {"validation_not_object", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"validation\":5}",
       "m.json: validation: expected an object, got a number"},
      {"validation_no_bounds", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"validation\":{\"report\":\"r.md\"}}",
       "m.json: validation: missing key \"bounds\""},
      {"validation_unknown_key", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"validation\":{\"report\":\"r.md\",\"bounds\":[],\"mape\":1}}",
       "m.json: validation: unknown key \"mape\" (known: report, records, made_by, bounds)"},
      {"validation_unknown_bound", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"validation\":{\"report\":\"r.md\",\"bounds\":[{\"bound\":\"compute\",\"records\":1,\"median_abs_error\":0.1,\"p10\":-0.2,\"p90\":0.2}]}}",
       "m.json: validation.bounds[0].bound: unknown bound \"compute\" (expected latency, global bandwidth, shared memory, launch or issue)"},
      {"validation_twice", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"validation\":{\"report\":\"r.md\",\"bounds\":[{\"bound\":\"launch\",\"records\":1,\"median_abs_error\":0.1,\"p10\":-0.2,\"p90\":0.2},{\"bound\":\"launch\",\"records\":2,\"median_abs_error\":0.1,\"p10\":-0.2,\"p90\":0.2}]}}",
       "m.json: validation.bounds[1].bound: bound \"launch\" appears twice"},
      {"validation_p10_above_p90", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"validation\":{\"report\":\"r.md\",\"bounds\":[{\"bound\":\"latency\",\"records\":3,\"median_abs_error\":0.1,\"p10\":0.3,\"p90\":0.2}]}}",
       "m.json: validation.bounds[0]: p10 0.3 and p90 0.2: expected -1 <= p10 <= p90"},
      {"validation_missing_p90", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"validation\":{\"report\":\"r.md\",\"bounds\":[{\"bound\":\"latency\",\"records\":3,\"median_abs_error\":0.1,\"p10\":0.1}]}}",
       "m.json: validation.bounds[0]: missing key \"p90\""},
      {"validation_zero_records", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"validation\":{\"report\":\"r.md\",\"bounds\":[{\"bound\":\"latency\",\"records\":0,\"median_abs_error\":0.1,\"p10\":0.1,\"p90\":0.2}]}}",
       "m.json: validation.bounds[0].records: 0 is out of range [1, 4294967295]"},
      {"neg_instruction_units", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"instruction_units\":-1}",
       "m.json: instruction_units: -1 is out of range [0, 4294967296]"},
      {"issue_rate_umm", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"instruction_units\":1,\"issue_rate\":4}",
       "m.json: issue_rate: only hmm and async-hmm models have DMMs"},
      {"zero_issue_rate", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"instruction_units\":1,\"issue_rate\":0}",
       "m.json: issue_rate: 0 is out of range [1, 4096]"},
      {"frac_issue_rate", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"instruction_units\":1,\"issue_rate\":1.5}",
       "m.json: issue_rate: expected an integer, got 1.5"},
      {"frac_instruction_units", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"instruction_units\":0.5}",
       "m.json: instruction_units: expected an integer, got 0.5"},
      {"neg_shuffle_units", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"shuffle_units\":-1}",
       "m.json: shuffle_units: -1 is out of range [0, 4294967296]"},
      {"fractional_shuffle_units", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"shuffle_units\":1.5}",
       "m.json: shuffle_units: expected an integer, got 1.5"},
      {"loaded_on_dmm", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"global_loaded_latency\":[[0,5]]}",
       "m.json: global_loaded_latency: a dmm has no global memory; it applies to umm and hmm kinds"},
      {"loaded_not_array", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"global_loaded_latency\":5}",
       "m.json: global_loaded_latency: expected an array of [utilization per mille, latency] points, got a number"},
      {"loaded_empty", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"global_loaded_latency\":[]}",
       "m.json: global_loaded_latency: 0 points; expected 1 .. 32"},
      {"loaded_bad_point", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"global_loaded_latency\":[[0,5,6]]}",
       "m.json: global_loaded_latency[0]: expected a point [utilization per mille, latency]"},
      {"loaded_u_range", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"global_loaded_latency\":[[1001,5]]}",
       "m.json: global_loaded_latency[0][0]: 1001 is out of range [0, 1000]"},
      {"loaded_zero_latency", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"global_loaded_latency\":[[0,0]]}",
       "m.json: global_loaded_latency[0][1]: 0 is out of range [1, 4294967296]"},
      {"loaded_frac_u", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"global_loaded_latency\":[[0.5,5]]}",
       "m.json: global_loaded_latency[0][0]: expected an integer, got 0.5"},
      {"loaded_u_order", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"global_loaded_latency\":[[0,5],[500,7],[500,9]]}",
       "m.json: global_loaded_latency[2]: utilization 500 does not increase (the point before has 500)"},
      {"loaded_latency_down", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"global_loaded_latency\":[[0,5],[500,4]]}",
       "m.json: global_loaded_latency[1]: latency 4 is below the point before's (5)"},
      {"l2_loaded_without_l2", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l2_loaded_latency\":[[0,5]]}",
       "m.json: l2_loaded_latency: needs the l2 keys (l2_words, l2_latency, l2_rate)"},
      {"l1_on_umm", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l1_words\":64,\"l1_latency\":2}",
       "m.json: l1_words: only hmm and async-hmm models have DMMs with an L1"},
      {"l1_without_latency", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"l1_words\":64}",
       "m.json: missing key \"l1_latency\" (l1_words and l1_latency go together)"},
      {"l1_ways_alone", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"l1_ways\":4}",
       "m.json: missing key \"l1_words\" (l1_ways needs it)"},
      {"zero_l1_words", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"l1_words\":0,\"l1_latency\":2}",
       "m.json: l1_words: 0 is out of range [1, 9007199254740991]"},
      {"big_l1_ways", "{\"model\":\"hmm\",\"width\":4,\"dmms\":2,\"global_latency\":5,\"l1_words\":64,\"l1_latency\":2,\"l1_ways\":65}",
       "m.json: l1_ways: 65 is out of range [1, 64]"},
      {"string_shuffle_units", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"shuffle_units\":\"2\"}",
       "m.json: shuffle_units: expected an integer, got a string"},
      {"bool_launch_units", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"launch_units\":true}",
       "m.json: launch_units: expected an integer, got a boolean"},
      {"dmm_l2", "{\"model\":\"dmm\",\"width\":4,\"latency\":5,\"l2_words\":8,\"l2_latency\":2,\"l2_rate\":2}",
       "m.json: l2_words: a dmm has no global memory; the l2 keys apply to umm and hmm kinds"},
      {"l2_alone", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l2_words\":8}",
       "m.json: missing key \"l2_latency\" (l2_words, l2_latency and l2_rate go together)"},
      {"l2_rate_zero", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"l2_words\":8,\"l2_latency\":2,\"l2_rate\":0}",
       "m.json: l2_rate: 0 is out of range [1, 4096]"},
      {"l2_words_frac", "{\"model\":\"hmm\",\"width\":4,\"dmms\":1,\"global_latency\":5,\"l2_words\":0.5,\"l2_latency\":2,\"l2_rate\":2}",
       "m.json: l2_words: expected an integer, got 0.5"},
      {"big_launch_units", "{\"model\":\"umm\",\"width\":4,\"latency\":5,\"launch_units\":1e10}",
       "m.json: launch_units: 10000000000 is out of range [0, 4294967296]"},
};

/* Criterion re-executes tests in a new process: pass indices, not pointers. */
ParameterizedTestParameters(model, should_reject_bad_input) {
  static int idx[G_N_ELEMENTS(model_cases)];
  for (gsize i = 0; i < G_N_ELEMENTS(idx); i++) idx[i] = (int)i;
  return cr_make_param_array(int, idx, G_N_ELEMENTS(idx));
}

ParameterizedTest(int *i, model, should_reject_bad_input, .init = enter_tmp, .fini = leave_tmp) {
  const BadInput *c = &model_cases[*i];
  write_case("m.json", c);
  GError *err = NULL;
  MsModel *m = ms_model_load("m.json", &err);
  cr_expect_null(m, "%s: accepted", c->name);
  ms_model_free(m);
  expect_message(c, err);
}

Test(model, should_reject_missing_file, .init = enter_tmp, .fini = leave_tmp) {
  GError *err = NULL;
  cr_assert_null(ms_model_load("nope.json", &err));
  cr_assert(g_error_matches(err, MS_ERROR, MS_ERROR_IO));
  cr_expect_str_eq(err->message, "nope.json: cannot open: No such file or directory");
  g_error_free(err);
}

Test(model, should_reject_directory, .init = enter_tmp, .fini = leave_tmp) {
  GError *err = NULL;
  cr_assert_null(ms_model_load(".", &err));
  cr_assert_not_null(err);
  cr_expect(g_str_has_prefix(err->message, ".: "), "%s", err->message);
  g_error_free(err);
}

Test(model, should_load_shipped_models) {
  const char *src = g_getenv("MEMSIM_SRCDIR");
  cr_assert_not_null(src, "MEMSIM_SRCDIR is not set");
  static const char *const files[] = {"models/textbook-dmm.json", "models/textbook-umm.json"};
  for (gsize i = 0; i < G_N_ELEMENTS(files); i++) {
    g_autofree char *p = g_build_filename(src, files[i], NULL);
    GError *err = NULL;
    MsModel *m = ms_model_load(p, &err);
    cr_expect_not_null(m, "%s: %s", p, err ? err->message : "");
    if (m) {
      cr_expect_eq(m->width, 4);
      cr_expect_eq(m->latency, 5);
    }
    ms_model_free(m);
    g_clear_error(&err);
  }
}

/* ---- explicit traces ---- */

static const BadInput trace_cases[] = {
      {"empty", "",
       "t.json: file is empty"},
      {"invalid_json", "{\"memsim_trace\": 1,\n \"threads\": 4\n \"steps\": []}",
       "t.json:3:2: invalid JSON near '\"steps\": []}' (or nesting deeper than 1000)"},
      {"not_object", "\"x\"",
       "t.json: a trace file holds a JSON object, got a string"},
      {"missing_version", "{\"threads\":4,\"steps\":[]}",
       "t.json: missing key \"memsim_trace\" (the trace format version, 1)"},
      {"version2", "{\"memsim_trace\":2,\"threads\":4,\"steps\":[]}",
       "t.json: memsim_trace: unsupported trace version 2 (this memsim reads 1)"},
      {"version_str", "{\"memsim_trace\":\"1\",\"threads\":4,\"steps\":[]}",
       "t.json: memsim_trace: expected an integer, got a string"},
      {"missing_threads", "{\"memsim_trace\":1,\"steps\":[]}",
       "t.json: missing key \"threads\""},
      {"zero_threads", "{\"memsim_trace\":1,\"threads\":0,\"steps\":[]}",
       "t.json: threads: 0 is out of range [1, 4294967296]"},
      {"neg_threads", "{\"memsim_trace\":1,\"threads\":-3,\"steps\":[]}",
       "t.json: threads: -3 is out of range [1, 4294967296]"},
      {"big_threads", "{\"memsim_trace\":1,\"threads\":4294967297,\"steps\":[]}",
       "t.json: threads: 4294967297 is out of range [1, 4294967296]"},
      {"threads_2p53", "{\"memsim_trace\":1,\"threads\":1e16,\"steps\":[]}",
       "t.json: threads: 10000000000000000 is 2^53 or beyond, where JSON numbers stop being exact"},
      {"missing_steps", "{\"memsim_trace\":1,\"threads\":4}",
       "t.json: steps: expected an array, got nothing"},
      {"steps_object", "{\"memsim_trace\":1,\"threads\":4,\"steps\":{}}",
       "t.json: steps: expected an array, got an object"},
      {"unknown_key", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[],\"thread\":4}",
       "t.json: trace: unknown key \"thread\" (known: memsim_trace, form, name, threads, block_threads, shared_words, global_words, steps)"},
      {"global_words_negative", "{\"memsim_trace\":1,\"threads\":4,\"global_words\":-1,\"steps\":[]}",
       "t.json: global_words: -1 is out of range [0, 9007199254740991]"},
      {"global_words_bool", "{\"memsim_trace\":1,\"threads\":4,\"global_words\":false,\"steps\":[]}",
       "t.json: global_words: expected an integer, got a boolean"},
      {"global_words_fraction", "{\"memsim_trace\":1,\"threads\":4,\"global_words\":2.5,\"steps\":[]}",
       "t.json: global_words: expected an integer, got 2.5"},
      {"shared_words_negative", "{\"memsim_trace\":1,\"threads\":4,\"shared_words\":-1,\"steps\":[]}",
       "t.json: shared_words: -1 is out of range [0, 9007199254740991]"},
      {"shared_words_string", "{\"memsim_trace\":1,\"threads\":4,\"shared_words\":\"8\",\"steps\":[]}",
       "t.json: shared_words: expected an integer, got a string"},
      {"shared_words_fraction", "{\"memsim_trace\":1,\"threads\":4,\"shared_words\":2.5,\"steps\":[]}",
       "t.json: shared_words: expected an integer, got 2.5"},
      {"dup_key", "{\"memsim_trace\":1,\"threads\":4,\"threads\":4,\"steps\":[]}",
       "t.json: trace: duplicate key \"threads\""},
      {"step_not_object", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[3]}",
       "t.json: steps[0]: expected an object, got a number"},
      {"missing_op", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"addr\":[0,1,2,3]}]}",
       "t.json: steps[0]: missing key \"op\""},
      {"unknown_op", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"load\",\"addr\":[0,1,2,3]}]}",
       "t.json: steps[0].op: unknown op \"load\" (expected read, write, sync, shuffle, signal, wait, compute or await)"},
      {"unknown_space", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\",\"space\":\"local\",\"addr\":[0,1,2,3]}]}",
       "t.json: steps[0].space: unknown space \"local\" (expected global or shared)"},
      {"unknown_scope", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"sync\",\"scope\":\"warp\"}]}",
       "t.json: steps[0].scope: unknown scope \"warp\" (expected grid or block)"},
      {"short_addr", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":[0,1,2]}]}",
       "t.json: steps[0].addr: has 3 entries, expected one per thread (4)"},
      {"long_addr", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"write\",\"addr\":[0,1,2,3,4]}]}",
       "t.json: steps[0].addr: has 5 entries, expected one per thread (4)"},
      {"missing_addr", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\"}]}",
       "t.json: steps[0].addr: expected an array, got nothing"},
      {"neg_addr", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":[0,-1,2,3]}]}",
       "t.json: steps[0].addr[1]: -1 is out of range [0, 9007199254740991]"},
      {"frac_addr", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":[0,1.5,2,3]}]}",
       "t.json: steps[0].addr[1]: expected an integer, got 1.5"},
      {"str_addr", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":[0,\"1\",2,3]}]}",
       "t.json: steps[0].addr[1]: expected an integer, got a string"},
      {"big_addr", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":[0,1,2,18014398509481984]}]}",
       "t.json: steps[0].addr[3]: 18014398509481984 is 2^53 or beyond, where JSON numbers stop being exact"},
      /* 2^53 + 1 reads as the double 2^53: it must not silently alias another address */
      {"addr_2p53_plus_1", "{\"memsim_trace\":1,\"threads\":2,\"steps\":[{\"op\":\"read\",\"addr\":[0,9007199254740993]}]}",
       "t.json: steps[0].addr[1]: 9007199254740992 is 2^53 or beyond, where JSON numbers stop being exact"},
      {"sync_addr", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"sync\",\"addr\":[0,1,2,3]}]}",
       "t.json: steps[0]: unknown key \"addr\" (known: op, scope)"},
      {"sync_space", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"sync\",\"space\":\"shared\"}]}",
       "t.json: steps[0]: a sync step has a scope, not a space"},
      {"shuffle_addr", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"shuffle\",\"addr\":[0,1,2,3]}]}",
       "t.json: steps[0]: unknown key \"addr\" (known: op, active)"},
      {"shuffle_space", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"shuffle\",\"space\":\"shared\"}]}",
       "t.json: steps[0]: a shuffle step has neither a space nor a scope"},
      {"shuffle_scope", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"shuffle\",\"scope\":\"block\"}]}",
       "t.json: steps[0]: a shuffle step has neither a space nor a scope"},
      {"shuffle_active_short", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"shuffle\",\"active\":[true,false]}]}",
       "t.json: steps[0].active: expected an array of 4 true or false (one per thread), got another length"},
      {"shuffle_active_object", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"shuffle\",\"active\":{}}]}",
       "t.json: steps[0].active: expected an array of 4 true or false (one per thread), got an object"},
      {"shuffle_active_number", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"shuffle\",\"active\":[true,1,true,true]}]}",
       "t.json: steps[0].active[1]: expected true or false, got a number"},
      {"signal_space", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"signal\",\"space\":\"global\",\"flag\":[0,null,null,null]}]}",
       "t.json: steps[0]: a signal step has neither a space nor a scope"},
      {"wait_addr", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"wait\",\"addr\":[0,null,null,null]}]}",
       "t.json: steps[0]: unknown key \"addr\" (known: op, flag)"},
      {"signal_no_flag", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"signal\"}]}",
       "t.json: steps[0].flag: expected an array, got nothing"},
      {"signal_flag_short", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"signal\",\"flag\":[0]}]}",
       "t.json: steps[0].flag: has 1 entries, expected one per thread (4)"},
      {"wait_flag_negative", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"wait\",\"flag\":[null,-2,null,null]}]}",
       "t.json: steps[0].flag[1]: -2 is out of range [0, 9007199254740991]"},
      {"signal_twice", "{\"memsim_trace\":1,\"threads\":8,\"steps\":[{\"op\":\"signal\",\"flag\":[3,null,null,null,3,null,null,null]}]}",
       "t.json: step 0: warp 1 signals flag 3, which warp 0 has signalled already (a flag is set once)"},
      {"wait_forever", "{\"memsim_trace\":1,\"threads\":8,\"block_threads\":4,\"steps\":[{\"op\":\"wait\",\"flag\":[null,null,null,null,5,5,null,4]},{\"op\":\"signal\",\"flag\":[4,null,null,null,null,null,null,null]}]}",
       "t.json: 1 warp waits forever: warp 1 waits for flag 5, which no warp signals before a barrier or a wait that needs the waiting warps (deadlock)"},
      {"wait_on_each_other", "{\"memsim_trace\":1,\"threads\":8,\"steps\":[{\"op\":\"wait\",\"flag\":[1,null,null,null,0,null,null,null]},{\"op\":\"signal\",\"flag\":[0,null,null,null,1,null,null,null]}]}",
       "t.json: 2 warps wait forever: warp 0 waits for flag 1, which no warp signals before a barrier or a wait that needs the waiting warps (deadlock)"},
      {"compact_flag_negative", "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"signal\",\"flag\":\"tid - 1\"}]}",
       "t.json: steps[0].flag: negative flag -1 (thread 0)"},
      {"compact_flag_addr", "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"wait\",\"addr\":\"tid\"}]}",
       "t.json: steps[0]: unknown key \"addr\" (known: op, flag, when)"},
      {"compute_zero", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"compute\",\"instructions\":[3,0,null,null]}]}",
       "t.json: steps[0].instructions[1]: 0 is out of range [1, 65535]"},
      {"compute_too_many", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"compute\",\"instructions\":[65536,1,1,1]}]}",
       "t.json: steps[0].instructions[0]: 65536 is out of range [1, 65535]"},
      {"compute_space", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"compute\",\"space\":\"global\",\"instructions\":[1,1,1,1]}]}",
       "t.json: steps[0]: a compute step has neither a space nor a scope"},
      {"compute_addr", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"compute\",\"addr\":[1,1,1,1]}]}",
       "t.json: steps[0]: unknown key \"addr\" (known: op, instructions)"},
      {"compute_no_count", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"compute\"}]}",
       "t.json: steps[0].instructions: expected an array, got nothing"},
      {"compact_compute_negative", "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"compute\",\"instructions\":\"tid - 2\"}]}",
       "t.json: steps[0].instructions: negative instructions -2 (thread 0)"},
      {"compact_compute_zero", "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":8,\"steps\":[{\"op\":\"compute\",\"instructions\":\"(tid + 1) % 6\"}]}",
       "t.json: step 0: thread 5: instructions 0 is out of range [1, 65535]"},
      {"compact_compute_big", "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"compute\",\"instructions\":\"tid * 40000 + 1\"}]}",
       "t.json: step 0: thread 2: instructions 80001 is out of range [1, 65535]"},
      {"async_write", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"write\",\"async\":true,\"addr\":[0,1,2,3]}]}",
       "t.json: steps[0].async: only a global read is asynchronous (this step is a global write)"},
      {"async_shared", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\",\"space\":\"shared\",\"async\":true,\"addr\":[0,1,2,3]}]}",
       "t.json: steps[0].async: only a global read is asynchronous (this step is a shared read)"},
      {"async_number", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\",\"async\":1,\"addr\":[0,1,2,3]}]}",
       "t.json: steps[0].async: expected true or false, got a number"},
      {"await_space", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"await\",\"space\":\"global\"}]}",
       "t.json: steps[0]: an await step has neither a space nor a scope"},
      {"await_addr", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"await\",\"addr\":[0,1,2,3]}]}",
       "t.json: steps[0]: unknown key \"addr\" (known: op, active)"},
      {"compact_async_write", "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"write\",\"async\":true,\"addr\":\"tid\"}]}",
       "t.json: steps[0].async: only a global read is asynchronous (this step is a global write)"},
      {"compact_await_addr", "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"steps\":[{\"op\":\"await\",\"addr\":\"tid\"}]}",
       "t.json: steps[0]: unknown key \"addr\" (known: op, when)"},
      {"read_scope", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\",\"scope\":\"grid\",\"addr\":[0,1,2,3]}]}",
       "t.json: steps[0]: a read step has a space, not a scope"},
      {"step_unknown_key", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\",\"adr\":[0,1,2,3],\"addr\":[0,1,2,3]}]}",
       "t.json: steps[0]: unknown key \"adr\" (known: op, space, addr, async)"},
      {"step_dup_key", "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":[0,1,2,3],\"addr\":[0,1,2,3]}]}",
       "t.json: steps[0]: duplicate key \"addr\""},
      {"bt_not_multiple", "{\"memsim_trace\":1,\"threads\":8,\"block_threads\":6,\"steps\":[{\"op\":\"read\",\"addr\":[0,1,2,3,4,5,6,7]}]}",
       "t.json: block_threads: 6 is not a multiple of the width w = 4"},
      {"bt_zero", "{\"memsim_trace\":1,\"threads\":8,\"block_threads\":0,\"steps\":[]}",
       "t.json: block_threads: 0 is out of range [1, 4294967296]"},
      {"nesting", NULL, "t.json:1:1038: invalid JSON near '[[[[[[[[[[[[[[[[' (or nesting deeper than 1000)"},
      {"unknown_form", "{\"memsim_trace\":1,\"form\":\"zip\",\"threads\":4,\"steps\":[]}",
       "t.json: form: unknown trace form \"zip\" (expected explicit or compact)"},
      {"nul", "{\"memsim_trace\":1,\0}",
       "t.json:1:19: NUL byte in JSON text", 20},
};

/* Criterion re-executes tests in a new process: pass indices, not pointers. */
ParameterizedTestParameters(trace, should_reject_bad_input) {
  static int idx[G_N_ELEMENTS(trace_cases)];
  for (gsize i = 0; i < G_N_ELEMENTS(idx); i++) idx[i] = (int)i;
  return cr_make_param_array(int, idx, G_N_ELEMENTS(idx));
}

/* Open `path`; if that works, simulate it on a DMM w = 4, l = 5.  Returns the error. */
static GError *open_and_run(const char *path) {
  GError *err = NULL;
  MsSource *src = ms_trace_open(path, &err);
  if (!src) return err;
  MsModel *m = ms_model_new(MS_MODEL_DMM, 4, 5, 1, 0, 0);
  MsResult *r = ms_simulate(m, src, NULL, &err);
  cr_expect_null(r, "simulated a bad trace: %lu time units", r ? (unsigned long)r->time_units : 0);
  ms_result_free(r);
  ms_model_free(m);
  ms_source_free(src);
  return err;
}

ParameterizedTest(int *i, trace, should_reject_bad_input, .init = enter_tmp, .fini = leave_tmp) {
  const BadInput *c = &trace_cases[*i];
  write_case("t.json", c);
  expect_message(c, open_and_run("t.json"));
}

Test(trace, should_reject_missing_file, .init = enter_tmp, .fini = leave_tmp) {
  GError *err = NULL;
  cr_assert_null(ms_trace_open("nope.json", &err));
  cr_assert(g_error_matches(err, MS_ERROR, MS_ERROR_IO));
  cr_expect_str_eq(err->message, "nope.json: cannot open: No such file or directory");
  g_error_free(err);
}

/* l2_warm runs a trace twice: a caller that cannot open it again (no MsSimOptions.reopen:
 * standard input, gen --run) is refused by name, with nothing simulated. */
Test(simulate, l2_warm_should_refuse_a_trace_read_once) {
  MtTrace *t = mt_trace_new(4, 4);
  const gint64 a[4] = {0, 1, 2, 3};
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_GLOBAL, a);
  MsSource *src = mt_source(t, "once.json");
  MsModel *m = ms_model_new(MS_MODEL_UMM, 4, 5, 1, 0, 0);
  m->l2_words = 8;
  m->l2_latency = 2;
  m->l2_rate = 1;
  m->l2_ways = 1;
  m->l2_warm = TRUE;
  GError *err = NULL;
  MsResult *r = ms_simulate(m, src, NULL, &err);
  cr_expect_null(r);
  cr_assert_not_null(err);
  cr_expect_str_eq(err->message, "once.json: l2_warm: the model runs a trace twice (a first run warms the L2), and it "
                                 "can be read only once here: simulate a trace file with memsim run (not standard "
                                 "input) or records with memsim compare");
  g_error_free(err);
  ms_result_free(r);
  ms_model_free(m);
  ms_source_free(src);
  mt_trace_free(t);
}

Test(trace, should_accept_block_threads_multiple_of_w, .init = enter_tmp, .fini = leave_tmp) {
  BadInput c = {"ok", "{\"memsim_trace\":1,\"threads\":8,\"block_threads\":4,\"steps\":"
                      "[{\"op\":\"read\",\"addr\":[0,1,2,3,4,5,6,null]},{\"op\":\"sync\"}]}",
                "", 0};
  write_case("t.json", &c);
  GError *err = NULL;
  MsSource *src = ms_trace_open("t.json", &err);
  cr_assert_not_null(src, "%s", err ? err->message : "");
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_DMM, 4, 5, 1, 0, 0);
  g_autoptr(MsResult) r = mt_run_source(m, src, NULL);
  cr_expect_eq(r->time_units, 6);
  cr_expect_eq(r->blocks, 2);
  ms_source_free(src);
}

/* ---- binary traces ----
 * The binary form of a 4-thread, 3-step trace named "g" written by ms_trace_write, then cut
 * or shifted.  Its layout: 32-byte header, the name length (4 bytes) and name (1 byte),
 * then per step a 4-byte header and, for memory steps, the addresses; a 4-byte end marker. */
static GByteArray *good_binary(void) {
  MtTrace *t = mt_trace_new(4, 0);
  const gint64 a[4] = {0, 1, N_, 3}, b[4] = {0, 100000, 2, 3};
  mt_mem_arr(t, MS_OP_READ, MS_SPACE_GLOBAL, a);
  mt_sync(t, MS_SCOPE_GRID);
  mt_mem_arr(t, MS_OP_WRITE, MS_SPACE_SHARED, b);
  MsSource *src = mt_source(t, "g");
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  GError *err = NULL;
  cr_assert(ms_trace_write(src, MS_FORMAT_BINARY, f, "g", &err), "%s", err ? err->message : "");
  fclose(f);
  ms_source_free(src);
  mt_trace_free(t);
  GByteArray *g = g_byte_array_new();
  g_byte_array_append(g, (const guint8 *)buf, (guint)len);
  free(buf);
  return g;
}

typedef struct {
  const char *name;
  int cut;    /* >= 0: keep this many bytes; < 0: drop -cut bytes from the end */
  int insert; /* >= 0: insert one junk byte at this offset */
  const char *expected;
} BadBinary;

static const BadBinary binary_cases[] = {
      {"truncated_header", 4, -1, 
       "t.bin: byte 4: truncated file: the header needs 32 bytes, only 4 present"},
      {"truncated_header_31", 31, -1, 
       "t.bin: byte 31: truncated file: the header needs 32 bytes, only 31 present"},
      {"truncated_name_length", 34, -1, 
       "t.bin: byte 34: truncated file: the name length needs 4 bytes, only 2 present"},
      {"truncated_name", 36, -1, 
       "t.bin: byte 36: truncated file: the name needs 1 bytes, only 0 present"},
      {"truncated_step_header", 39, -1, 
       "t.bin: byte 39, step 0: truncated file: a step header needs 4 bytes, only 2 present"},
      {"truncated_addresses", -5, -1, 
       "t.bin: byte 80, step 2: truncated file: the step's addresses needs 16 bytes, only 15 present"},
      {"truncated_end_marker", -1, -1, 
       "t.bin: byte 84, step 3: truncated file: a step header needs 4 bytes, only 3 present"},
      {"misaligned_step_header", 0, 37, 
       "t.bin: byte 37, step 0: bad step header 6e 00 00 01 (misaligned or corrupt file?)"},
      {"misaligned_addresses", 0, 45, 
       "t.bin: byte 57, step 1: bad step header 00 02 00 00 (misaligned or corrupt file?)"},
      {"data_after_end", 0, 1000000, 
       "t.bin: byte 85: data after the end marker"},
};

/* Criterion re-executes tests in a new process: pass indices, not pointers. */
ParameterizedTestParameters(binary, should_reject_bad_input) {
  static int idx[G_N_ELEMENTS(binary_cases)];
  for (gsize i = 0; i < G_N_ELEMENTS(idx); i++) idx[i] = (int)i;
  return cr_make_param_array(int, idx, G_N_ELEMENTS(idx));
}

ParameterizedTest(int *i, binary, should_reject_bad_input, .init = enter_tmp, .fini = leave_tmp) {
  const BadBinary *c = &binary_cases[*i];
  GByteArray *g = good_binary();
  if (c->cut > 0) g_byte_array_set_size(g, (guint)c->cut);
  if (c->cut < 0) g_byte_array_set_size(g, g->len - (guint)-c->cut);
  if (c->insert >= 0) {
    guint at = MIN((guint)c->insert, g->len);
    const guint8 junk = 0x6e;
    g_byte_array_set_size(g, g->len + 1);
    memmove(g->data + at + 1, g->data + at, g->len - 1 - at);
    g->data[at] = junk;
  }
  GError *err = NULL;
  cr_assert(g_file_set_contents("t.bin", (const char *)g->data, g->len, &err));
  g_byte_array_free(g, TRUE);
  err = open_and_run("t.bin");
  cr_assert_not_null(err, "%s: accepted", c->name);
  cr_expect_str_eq(err->message, c->expected, "%s:\n  got      %s\n  expected %s", c->name,
                   err->message, c->expected);
  g_error_free(err);
}

Test(binary, good_file_should_run, .init = enter_tmp, .fini = leave_tmp) {
  GByteArray *g = good_binary();
  GError *err = NULL;
  cr_assert(g_file_set_contents("t.bin", (const char *)g->data, g->len, &err));
  g_byte_array_free(g, TRUE);
  MsSource *src = ms_trace_open("t.bin", &err);
  cr_assert_not_null(src, "%s", err ? err->message : "");
  g_autoptr(MsModel) m = ms_model_new(MS_MODEL_DMM, 4, 5, 1, 0, 0);
  g_autoptr(MsResult) r = mt_run_source(m, src, NULL);
  cr_expect_eq(r->requests, 7);
  cr_expect_eq(r->steps, 3);
  ms_source_free(src);
}

/* ---- shared_words, global_words: read by both JSON forms, kept by ms_trace_write in both
 * forms ---- */
static void words_after(MsSource *src, MsFormat fmt, const char *path, guint64 *sw, guint64 *gw) {
  FILE *f = fopen(path, "wb");
  GError *err = NULL;
  cr_assert(ms_trace_write(src, fmt, f, path, &err), "%s", err ? err->message : "");
  fclose(f);
  MsSource *back = ms_trace_open(path, &err);
  cr_assert_not_null(back, "%s", err ? err->message : "");
  *sw = ms_source_shared_words(back);
  *gw = ms_source_global_words(back);
  ms_source_free(back);
}

Test(trace, shared_words_should_survive_conversion, .init = enter_tmp, .fini = leave_tmp) {
  static const char *const texts[] = {
      "{\"memsim_trace\":1,\"threads\":4,\"shared_words\":2048,\"steps\":[{\"op\":\"read\",\"addr\":[0,1,2,3]}]}",
      "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"shared_words\":2048,\"steps\":[{\"op\":\"read\",\"addr\":\"tid\"}]}",
      "{\"memsim_trace\":1,\"threads\":4,\"steps\":[{\"op\":\"read\",\"addr\":[0,1,2,3]}]}",
      "{\"memsim_trace\":1,\"threads\":4,\"global_words\":70000,\"steps\":[{\"op\":\"read\",\"addr\":[0,1,2,3]}]}",
      "{\"memsim_trace\":1,\"form\":\"compact\",\"threads\":4,\"shared_words\":16,\"global_words\":9007199254740991,\"steps\":[{\"op\":\"read\",\"addr\":\"tid\"}]}"};
  static const guint64 want_sw[] = {2048, 2048, 0, 0, 16};
  static const guint64 want_gw[] = {0, 0, 0, 70000, 9007199254740991};
  for (int i = 0; i < 5; i++) {
    BadInput c = {"ok", texts[i], "", 0};
    write_case("t.json", &c);
    GError *err = NULL;
    MsSource *src = ms_trace_open("t.json", &err);
    cr_assert_not_null(src, "%s", err ? err->message : "");
    cr_expect_eq(ms_source_shared_words(src), want_sw[i], "trace %d", i);
    cr_expect_eq(ms_source_global_words(src), want_gw[i], "trace %d", i);
    guint64 sw, gw;
    words_after(src, MS_FORMAT_BINARY, "t.bin", &sw, &gw);
    cr_expect_eq(sw, want_sw[i], "trace %d, binary", i);
    cr_expect_eq(gw, want_gw[i], "trace %d, binary", i);
    ms_source_free(src);
    src = ms_trace_open("t.json", &err);
    words_after(src, MS_FORMAT_EXPLICIT, "m.json", &sw, &gw);
    cr_expect_eq(sw, want_sw[i], "trace %d, explicit", i);
    cr_expect_eq(gw, want_gw[i], "trace %d, explicit", i);
    ms_source_free(src);
  }
  /* the last binary written: both flags */
  {
    gchar *b = NULL;
    gsize n = 0;
    cr_assert(g_file_get_contents("t.bin", &b, &n, NULL));
    cr_expect_eq(b[12], 3);
    g_free(b);
  }
  /* a trace without either key: the binary header of version 1 without flags */
  BadInput c = {"ok", texts[2], "", 0};
  write_case("t.json", &c);
  {
    GError *err = NULL;
    MsSource *src = ms_trace_open("t.json", &err);
    guint64 sw, gw;
    words_after(src, MS_FORMAT_BINARY, "t.bin", &sw, &gw);
    ms_source_free(src);
  }
  /* an undeclared shared_words writes the binary header of version 1 without flags */
  GError *err = NULL;
  gchar *bytes = NULL;
  gsize len = 0;
  cr_assert(g_file_get_contents("t.bin", &bytes, &len, &err));
  cr_expect_eq(bytes[12], 0);
  bytes[12] = 4; /* a flag this memsim does not know */
  cr_assert(g_file_set_contents("t.bin", bytes, (gssize)len, &err));
  g_free(bytes);
  err = open_and_run("t.bin");
  cr_assert_not_null(err);
  cr_expect_str_eq(err->message, "t.bin: byte 12: unknown flags 0x4");
  g_error_free(err);
}
