/* ms-error.c: the library's error domain and the names of enum values. */
#include "ms-private.h"

G_DEFINE_QUARK(memsim-error-quark, ms_error)

const char *ms_op_name(MsOp op) {
  switch (op) {
  case MS_OP_READ: return "read";
  case MS_OP_WRITE: return "write";
  case MS_OP_SYNC: return "sync";
  case MS_OP_SHUFFLE: return "shuffle";
  case MS_OP_SIGNAL: return "signal";
  case MS_OP_WAIT: return "wait";
  case MS_OP_COMPUTE: return "compute";
  case MS_OP_AWAIT: return "await";
  }
  return "?";
}

const char *ms_space_name(MsSpace space) {
  switch (space) {
  case MS_SPACE_GLOBAL: return "global";
  case MS_SPACE_SHARED: return "shared";
  }
  return "?";
}

const char *ms_scope_name(MsScope scope) {
  switch (scope) {
  case MS_SCOPE_GRID: return "grid";
  case MS_SCOPE_BLOCK: return "block";
  }
  return "?";
}
