#!/usr/bin/python3
"""tinygrad_summary.py: summarise one run of tinygrad's tests from its JUnit XML (pytest -o junit_family=xunit1).
usage: TG=DIR tinygrad_summary.py RUN.xml [--launch RUN.launch] [--base CPU.xml] [--out PREFIX]
Prints passed/failed/skipped (overall, and among the tests that launched a kernel when --launch is given); writes
PREFIX.failed.txt (every failed/errored test id with the first line of its message) and, with --base,
PREFIX.failed_same_on_cpu.txt (also failing on the baseline with the same message, numbers aside: the environment),
PREFIX.failed_other_on_cpu.txt (failing on both, other messages) and PREFIX.failed_ours.txt (the baseline passes or skips)."""
import argparse, collections, os, re, sys
import xml.etree.ElementTree as ET

TG = os.environ["TG"]          # the tinygrad checkout (scripts/tinygrad_backend.sh sets it)

def load(path):
  res = {}
  for tc in ET.parse(path).getroot().iter("testcase"):
    f, cls, name = tc.get("file") or "", tc.get("classname") or "", tc.get("name") or ""
    # the file attribute is wrong for decorated tests: find the module as the longest prefix of classname that is a file
    parts = cls.split(".")
    for k in range(len(parts), 0, -1):
      if os.path.isfile(os.path.join(TG, *parts[:k]) + ".py"):
        f = "/".join(parts[:k]) + ".py"
        break
    mod = f[:-3].replace("/", ".") if f.endswith(".py") else ""
    inner = cls[len(mod) + 1:] if mod and cls.startswith(mod + ".") else ("" if cls == mod else cls)
    nid = "::".join(x for x in (f, *inner.split(".")) if x) + "::" + name if inner else f"{f}::{name}"
    outcome, msg = "passed", ""
    for child in tc:
      if child.tag in ("failure", "error"): outcome, msg = "failed", (child.get("message") or child.text or "")
      elif child.tag == "skipped" and outcome == "passed":
        outcome, msg = ("xfailed" if child.get("type") == "pytest.xfail" else "skipped"), child.get("message") or ""
    prev = res.get(nid)
    if prev is None or prev[0] == "passed" or outcome == "failed": res[nid] = (outcome, msg.strip().splitlines()[0][:200] if msg.strip() else "")
  return res

def counts(res, ids=None):
  c = collections.Counter(o for n, (o, _) in res.items() if ids is None or n in ids)
  return f"{sum(c.values())} tests: {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped, {c['xfailed']} xfailed"

def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("xml"); ap.add_argument("--launch"); ap.add_argument("--base"); ap.add_argument("--out")
  a = ap.parse_args()
  res = load(a.xml)
  out = a.out or a.xml.removesuffix(".xml")
  lines = [f"{a.xml}", f"all:              {counts(res)}"]
  launched = None
  if a.launch:
    launched = set()
    if os.path.exists(a.launch):
      with open(a.launch) as f: launched = {l.split("\t")[0] for l in f if l.strip()}
    lines.append(f"launch a kernel:  {counts(res, launched)}")
    lines.append(f"launch none:      {counts(res, set(res) - launched)}")
    if missing := launched - set(res): lines.append(f"({len(missing)} launching ids not in the XML)")
  crashed = [n for n, (o, m) in res.items() if o == "failed" and "crashed" in m]
  lines.append(f"worker crashes:   {len(crashed)}")
  failed = sorted(n for n, (o, _) in res.items() if o == "failed")
  with open(out + ".failed.txt", "w") as f: f.writelines(f"{n}\t{res[n][1]}\n" for n in failed)
  if a.base and os.path.exists(a.base):
    base = load(a.base)
    norm = lambda m: re.sub(r"0x[0-9a-fA-F]+|[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?", "N", m)
    same = [n for n in failed if base.get(n, ("?",))[0] == "failed" and norm(base[n][1]) == norm(res[n][1])]
    other = [n for n in failed if base.get(n, ("?",))[0] == "failed" and n not in same]
    ours = [n for n in failed if base.get(n, ("?",))[0] != "failed"]
    for name, ids in (("same_on_cpu", same), ("other_on_cpu", other), ("ours", ours)):
      with open(f"{out}.failed_{name}.txt", "w") as f:
        f.writelines(f"{n}\t{res[n][1]}\t| baseline: {base.get(n, ('?', ''))[0]} {base.get(n, ('', ''))[1]}\n" for n in ids)
    lines.append(f"failed here and on the baseline ({a.base}) with the same message (environment, e.g. Debian's torch/numpy): {len(same)}")
    lines.append(f"failed here and on the baseline with another message (look at both): {len(other)}")
    lines.append(f"failed only here (baseline passed/skipped/absent): {len(ours)}")
    if launched is not None:
      lines.append(f"  of those failing only here, launched a kernel: {sum(n in launched for n in ours)}")
      ok = {n for n in launched if base.get(n, ("?",))[0] != "failed"}
      lines.append(f"launching tests that do not fail on the baseline: {counts(res, ok)}")
  text = "\n".join(lines) + "\n"
  with open(out + ".summary.txt", "w") as f: f.write(text)
  sys.stdout.write(text)

if __name__ == "__main__": main()
