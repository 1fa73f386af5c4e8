#!/usr/bin/env python3
"""Generate memsim(1) and the bash completion from the built program's own --help.

    gen-man.py MEMSIM VERSION OUT_MAN OUT_COMPLETION

One source: every verb's and generator's options are read from `memsim VERB --help` (and
`memsim gen FAMILY --help`), so the man page and the completion cannot drift from --help."""
import re
import subprocess
import sys

memsim, version, out_man, out_comp = sys.argv[1:5]


def help_text(*args):
    r = subprocess.run([memsim, *args, "--help"], capture_output=True, text=True)
    return (r.stdout + r.stderr).rstrip("\n")


def verbs(top):
    out, on = [], False
    for line in top.splitlines():
        if line.startswith("Verbs:"):
            on = True
            continue
        if on:
            m = re.match(r"  (\S+)\s+(.*)", line)
            if not m:
                break
            out.append((m.group(1), m.group(2)))
    return out


def families(gen_help):
    out = []
    for line in gen_help.splitlines():
        m = re.match(r"  ([a-z][a-z0-9-]*)\s{2,}(.*)", line)
        if m and not m.group(1).startswith("-"):
            out.append((m.group(1), m.group(2)))
    return out


def options(text):
    """The options a help text lists (its option lines, not options named in prose)."""
    found = re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z0-9-]*)", text, re.M)
    return sorted(set(found) - {"--help", "--help-all"})


def roff(text):
    lines = []
    for line in text.splitlines():
        line = line.replace("\\", "\\\\").replace("-", "\\-")
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


top = help_text()
vs = [(v, d) for v, d in verbs(top) if v != "version"]
gen_help = help_text("gen")
fams = families(gen_help)
man = [
    f'.TH MEMSIM 1 "" "memsim {version}" "User Commands"',
    ".SH NAME",
    "memsim \\- simulate the parallel memory machine models (UMM, DMM, HMM) and predict GPU memory time",
    ".SH SYNOPSIS",
    ".B memsim",
    ".I VERB",
    "[\\fIOPTIONS\\fR...] [\\fIARGS\\fR...]",
    ".SH DESCRIPTION",
    ".nf",
    roff(top),
    ".fi",
]
comp_opts = {}
for v, d in vs:
    h = help_text(v)
    man += [f".SH {v.upper()}", ".nf", roff(h), ".fi"]
    comp_opts[v] = options(h)
for f, d in fams:
    h = help_text("gen", f)
    man += [f".SH GEN {f.upper()}", ".nf", roff(h), ".fi"]
    comp_opts["gen " + f] = options(h)
man += [".SH SEE ALSO", "docs/cli.md, docs/models.md, docs/trace-format.md in the memsim sources."]
open(out_man, "w").write("\n".join(man) + "\n")

cases = []
for key, opts in comp_opts.items():
    if key.startswith("gen "):
        continue
    cases.append(f'    {key}) opts="{" ".join(opts)}" ;;')
gen_cases = [f'      {k[4:]}) opts="{" ".join(o)}" ;;' for k, o in comp_opts.items() if k.startswith("gen ")]
comp = f"""# bash completion for memsim {version} (generated from memsim --help by scripts/gen-man.py)
_memsim() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} verb=${{COMP_WORDS[1]}} opts=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "{" ".join(v for v, _ in verbs(top))}" -- "$cur"))
    return
  fi
  case $verb in
{chr(10).join(cases)}
  esac
  if [ "$verb" = gen ]; then
    if [ "$COMP_CWORD" -eq 2 ]; then
      COMPREPLY=($(compgen -W "{" ".join(f for f, _ in fams)}" -- "$cur"))
      return
    fi
    case ${{COMP_WORDS[2]}} in
{chr(10).join(gen_cases)}
    esac
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts --help" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -F _memsim memsim
"""
open(out_comp, "w").write(comp)
