#!/usr/bin/env python3
"""Group the differences between ptxrun and the H100 by instruction.

usage: scripts/hw_diff.py [--ptxrun PATH] [--examples N] CASE_DIR_OR_PTX...

For every case with a meta.json (../shared/hw layout), runs ptxrun --json, compares every
output slot with the H100's value, and charges each difference to the instruction that wrote the
slot, but only where all of that instruction's sources agree (so a wrong value is counted once, at
the instruction that made it, not again at each user).  Prints one line per instruction form
with the number of differing values and a few examples (sources as the H100 computed them).
"""
import json, os, subprocess, sys, collections, glob

def load(p):
    with open(p) as f:
        return json.load(f)

def ival(v):
    if isinstance(v, bool): return int(v)
    if isinstance(v, int): return v
    if v is None: return None
    if isinstance(v, str):
        try: return int(v, 0)
        except ValueError: return v
    return v

def main():
    args = sys.argv[1:]
    exe = os.path.join(os.path.dirname(__file__), "..", "build", "ptxrun")
    nex = 3
    paths = []
    while args:
        a = args.pop(0)
        if a == "--ptxrun": exe = args.pop(0)
        elif a == "--examples": nex = int(args.pop(0))
        else: paths.append(a)
    cases = []
    for p in paths:
        if os.path.isdir(p): cases += sorted(glob.glob(os.path.join(p, "*.meta.json")))
        elif p.endswith(".meta.json"): cases.append(p)
        elif p.endswith(".ptx"): cases.append(p[:-4] + ".meta.json")
    bad = collections.Counter(); total = collections.Counter(); ex = collections.defaultdict(list)
    runfail = collections.Counter(); runex = {}
    for mp in cases:
        base = mp[:-len(".meta.json")]
        meta = load(mp); exp = {k: (v["data"] if isinstance(v, dict) else v) for k, v in load(base + ".expect.json")["buffers"].items()}; lanes = load(base + ".lanes.json")
        r = subprocess.run([exe, base + ".ptx", "--lanes", base + ".lanes.json", "--json", "-w"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            msg = (r.stderr.strip().splitlines() or ["?"])[0]
            key = msg.split(": error: ")[-1][:90]
            runfail[key] += 1; runex.setdefault(key, os.path.basename(base))
            continue
        got = {k: (v["data"] if isinstance(v, dict) else v) for k, v in json.loads(r.stdout)["buffers"].items()}
        n = meta["nthreads"]
        slots = meta.get("slots", {}); inputs = meta.get("inputs", {})
        def hwv(reg, t):
            if reg in slots:
                b, s = slots[reg]; return ival(exp[b][s * n + t])
            if reg in inputs:
                b, s = inputs[reg]; return ival(lanes["buffers"][b]["data"][s * n + t])
            return reg
        def ours(reg, t):
            if reg in slots:
                b, s = slots[reg]; return ival(got[b][s * n + t])
            return hwv(reg, t)
        ops = meta.get("ops")
        if not ops:
            for b in exp:
                for i, (e, g) in enumerate(zip(exp[b], got.get(b, []))):
                    if ival(e) != ival(g):
                        bad[os.path.basename(base)] += 1
                        if len(ex[os.path.basename(base)]) < nex:
                            ex[os.path.basename(base)].append(f"{b}[{i}] hw={e} ours={g}")
            continue
        for op in ops:
            for t in range(n):
                for d in op["dst"]:
                    if d not in slots: continue
                    total[op["what"]] += 1
                    if hwv(d, t) == ours(d, t): continue
                    if any(s in slots and hwv(s, t) != ours(s, t) for s in op["src"]): continue
                    bad[op["what"]] += 1
                    if len(ex[op["what"]]) < nex:
                        srcs = " ".join(f"{hex(x) if isinstance(x,int) else x}" for x in (hwv(s, t) for s in op["src"]))
                        h, o = hwv(d, t), ours(d, t)
                        ex[op["what"]].append(f"{os.path.basename(base)} t{t}: {op['text']}  src {srcs} -> hw {hex(h) if isinstance(h,int) else h} ours {hex(o) if isinstance(o,int) else o}")
    for k, v in sorted(runfail.items(), key=lambda kv: -kv[1]):
        print(f"RUNFAIL {v:5d}  {k}   (e.g. {runex[k]})")
    for k, v in sorted(bad.items(), key=lambda kv: -kv[1]):
        print(f"{k:32s} {v:6d} / {total.get(k, 0)}")
        for e in ex[k]: print("    " + e)
    print(f"{sum(bad.values())} differing values in {len(cases)} cases")

if __name__ == "__main__":
    main()
