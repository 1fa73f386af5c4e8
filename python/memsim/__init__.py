"""memsim from Python: ctypes over the shared library libmemsim (docs/python.md).

    import memsim, numpy as np
    m = memsim.Model.load("models/textbook-dmm.json")
    t = memsim.Trace.from_steps(8, [("read", "shared", np.array([7, 5, 15, 0, 10, 11, 12, 9]))])
    r = m.run(t)                      # a dict: the keys of `memsim run --json`
    r["time_units"]                   # 7
    m.run(memsim.Trace.generate("sat", "2r1w", n=256), per_step=True)["per_step"]

The library is found through $MEMSIM_LIB, then the install's libdir (_config.py), then the
linker's search path.  Errors from memsim raise memsim.Error with memsim's message."""
import ctypes
import ctypes.util
import json
import os

__all__ = ["Error", "Model", "Trace", "load_measurements", "library_path"]


class Error(Exception):
    """A memsim error (bad input, a trace the model cannot run, a failed verification)."""


class _GError(ctypes.Structure):
    _fields_ = [("domain", ctypes.c_uint32), ("code", ctypes.c_int), ("message", ctypes.c_char_p)]


class _SimOptions(ctypes.Structure):  # MsSimOptions (sim/include/memsim.h)
    _fields_ = [("per_step", ctypes.c_int), ("max_events", ctypes.c_uint64), ("progress", ctypes.c_void_p),
                ("progress_every", ctypes.c_uint64), ("progress_data", ctypes.c_void_p),
                ("threads", ctypes.c_uint), ("par_min_warps", ctypes.c_uint), ("fill_every_block", ctypes.c_int)]


def library_path():
    """Where libmemsim is loaded from."""
    if os.environ.get("MEMSIM_LIB"):
        return os.environ["MEMSIM_LIB"]
    try:
        from . import _config  # written by the build: the install's libdir
        p = os.path.join(_config.LIBDIR, "libmemsim.so")
        if os.path.exists(p):
            return p
    except ImportError:
        pass
    return ctypes.util.find_library("memsim") or "libmemsim.so"


_lib = ctypes.CDLL(library_path())
_glib = ctypes.CDLL(ctypes.util.find_library("glib-2.0") or "libglib-2.0.so.0")
_P = ctypes.c_void_p
_ERR = ctypes.POINTER(ctypes.POINTER(_GError))
for name, res, args in [
    ("ms_model_load", _P, [ctypes.c_char_p, _ERR]),
    ("ms_model_parse", _P, [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, _ERR]),
    ("ms_model_free", None, [_P]),
    ("ms_trace_open", _P, [ctypes.c_char_p, _ERR]),
    ("ms_trace_open_memory", _P, [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, _ERR]),
    ("ms_source_free", None, [_P]),
    ("ms_workload_source", _P, [ctypes.c_char_p, ctypes.c_char_p, _P, _ERR]),
    ("ms_simulate", _P, [_P, _P, ctypes.POINTER(_SimOptions), _ERR]),
    ("ms_result_to_json", _P, [_P, _P, _P, ctypes.c_int]),
    ("ms_result_free", None, [_P]),
]:
    f = getattr(_lib, name)
    f.restype, f.argtypes = res, args
_glib.g_free.argtypes = [_P]
_glib.g_error_free.argtypes = [ctypes.POINTER(_GError)]
_glib.g_hash_table_new.restype = _P
_glib.g_hash_table_new.argtypes = [_P, _P]
_glib.g_hash_table_insert.argtypes = [_P, _P, _P]
_glib.g_hash_table_unref.argtypes = [_P]


def _check(ptr, err):
    if ptr:
        return ptr
    msg = err.contents.message.decode() if err else "memsim: unknown error"
    if err:
        _glib.g_error_free(err)
    raise Error(msg)


class Model:
    """A memory machine model (docs/models.md)."""

    def __init__(self, handle):
        self._h = handle

    @classmethod
    def load(cls, path):
        err = ctypes.POINTER(_GError)()
        return cls(_check(_lib.ms_model_load(os.fsencode(path), ctypes.byref(err)), err))

    @classmethod
    def from_dict(cls, d, name="model"):
        text = json.dumps(d).encode()
        err = ctypes.POINTER(_GError)()
        return cls(_check(_lib.ms_model_parse(text, len(text), name.encode(), ctypes.byref(err)), err))

    def run(self, trace, per_step=False, threads=0):
        """Simulate `trace` (a Trace, consumed) and return the result as a dict with the keys
        of `memsim run --json` (and "per_step" when asked for)."""
        if trace._h is None:
            raise Error("this trace was already run; build it again")
        opt = _SimOptions(per_step=int(per_step), threads=threads)
        err = ctypes.POINTER(_GError)()
        try:
            r = _check(_lib.ms_simulate(self._h, trace._h, ctypes.byref(opt), ctypes.byref(err)), err)
            s = _lib.ms_result_to_json(r, self._h, trace._h, 0)
            out = json.loads(ctypes.string_at(s).decode())
            _glib.g_free(s)
            _lib.ms_result_free(r)
            return out
        finally:
            trace.close()

    def __del__(self):
        if getattr(self, "_h", None):
            _lib.ms_model_free(self._h)
            self._h = None


class Trace:
    """A trace to run once (a source streams its steps): from a file, from numpy arrays, or
    from a workload generator (verified before it is handed out)."""

    def __init__(self, handle):
        self._h = handle

    @classmethod
    def load(cls, path):
        err = ctypes.POINTER(_GError)()
        return cls(_check(_lib.ms_trace_open(os.fsencode(path), ctypes.byref(err)), err))

    @classmethod
    def from_json(cls, obj, name="trace"):
        text = (obj if isinstance(obj, str) else json.dumps(obj)).encode()
        err = ctypes.POINTER(_GError)()
        return cls(_check(_lib.ms_trace_open_memory(text, len(text), name.encode(), ctypes.byref(err)), err))

    @classmethod
    def from_steps(cls, threads, steps, block_threads=None, name="trace"):
        """steps: ("read"|"write", "global"|"shared", addresses) with one address per thread
        (a numpy array or a sequence; a negative address is an inactive thread), or
        ("sync", "grid"|"block")."""
        out = []
        for s in steps:
            if s[0] == "sync":
                out.append({"op": "sync", "scope": s[1]})
                continue
            addr = [None if int(a) < 0 else int(a) for a in (s[2].tolist() if hasattr(s[2], "tolist") else s[2])]
            if len(addr) != threads:
                raise Error(f"{name}: a step has {len(addr)} addresses for {threads} threads")
            out.append({"op": s[0], "space": s[1], "addr": addr})
        t = {"memsim_trace": 1, "name": name, "threads": threads, "steps": out}
        if block_threads:
            t["block_threads"] = block_threads
        return cls.from_json(t, name)

    @classmethod
    def generate(cls, family, algorithm, **params):
        """The verified trace of a workload (`memsim gen FAMILY`), params named as its record
        parameters: tile_threads for --tile-threads (an underscore stands for a hyphen,
        except in the simple family, whose names have underscores)."""
        table = _glib.g_hash_table_new(ctypes.cast(_glib.g_str_hash, _P), ctypes.cast(_glib.g_str_equal, _P))
        keep = []
        for k, v in params.items():
            key = k if family == "simple" else k.replace("_", "-")
            kb = ctypes.create_string_buffer(key.encode())
            vb = ctypes.create_string_buffer(str(int(v) if isinstance(v, bool) else v).encode())
            keep += [kb, vb]
            _glib.g_hash_table_insert(table, ctypes.cast(kb, _P), ctypes.cast(vb, _P))
        err = ctypes.POINTER(_GError)()
        try:
            return cls(_check(_lib.ms_workload_source(family.encode(), algorithm.encode(), table, ctypes.byref(err)), err))
        finally:
            _glib.g_hash_table_unref(table)

    def close(self):
        if self._h:
            _lib.ms_source_free(self._h)
            self._h = None

    __del__ = close


def load_measurements(path):
    """The records of a measurement file (memsim measure -o): a list of dicts, each checked
    for the keys the comparer needs."""
    with open(path) as f:
        d = json.load(f)
    if d.get("memsim_measurements") != 1 or not isinstance(d.get("records"), list):
        raise Error(f"{path}: not a memsim measurement file")
    for i, r in enumerate(d["records"]):
        for k in ("workload", "algorithm", "params", "median_ns"):
            if k not in r:
                raise Error(f"{path}: record {i}: missing \"{k}\"")
    return d["records"]
