#!/usr/bin/env python3
"""gen.py: the inputs and expected outputs of the cluster cases here, from a model written apart
from ptxrun (never from its output): the histograms counted in Python, the cluster registers
from the PTX ISA's definitions (a CTA's place in its cluster is %ctaid modulo the cluster's
shape, the cluster's place %ctaid divided by it, the rank x fastest as cooperative groups'
block_rank counts). Run it again after changing a case: python3 gen.py."""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, obj):
    with open(os.path.join(HERE, name), 'w') as f:
        json.dump(obj, f)
        f.write('\n')


def histogram(values, bins):
    out = [0] * bins
    for v in values:
        out[min(max(v, 0), bins - 1)] += 1
    return out


def hist_case(name, seed, count, grid, block, cluster, bins, params, extra=None):
    rng = random.Random(seed)
    values = [rng.randrange(-8, bins + 8) for _ in range(count)]
    lanes = {"grid": grid, "block": block, "cluster": cluster,
             "buffers": {"in": {"type": "s32", "data": values}, "out": {"type": "s32", "count": bins}},
             "params": params}
    lanes.update(extra or {})
    write(name + '.lanes.json', lanes)
    write(name + '.expect.json', {"buffers": {"out": histogram(values, bins)}})


def sregs_case(name, given):
    grid, cluster = [4, 4, 1], [2, 2, 1]
    out = [0] * (20 * grid[0] * grid[1])
    for y in range(grid[1]):
        for x in range(grid[0]):
            ctaid = [x, y, 0]
            cl_ctaid = [ctaid[d] % cluster[d] for d in range(3)]
            clusterid = [ctaid[d] // cluster[d] for d in range(3)]
            nclusterid = [grid[d] // cluster[d] for d in range(3)]
            rank = cl_ctaid[0] + cluster[0] * (cl_ctaid[1] + cluster[1] * cl_ctaid[2])
            explicit = 1        # given or from .reqnctapercluster: the ISA calls only 1 x 1 x 1 implicit
            words = ctaid + cl_ctaid + cluster + clusterid + nclusterid + [rank, cluster[0] * cluster[1] * cluster[2],
                                                                            explicit]
            at = 20 * (x + grid[0] * y)
            out[at:at + len(words)] = words
    lanes = {"grid": grid, "block": [32, 1, 1], "buffers": {"out": {"type": "u32", "count": len(out)}},
             "params": {"out": "@out"}}
    if given:
        lanes["cluster"] = cluster
    write(name + '.lanes.json', lanes)
    write(name + '.expect.json', {"buffers": {"out": out}})


def one_cta_case():
    out = [0] * (8 * 40)
    for t in range(36):                 # 36-39 exit first
        v = 7 * ((t + 1) % 36)          # the neighbour's word
        # its value, its rank and this CTA's (0: a cluster of one), the generic form's rank,
        # isspacep .shared::cluster, .shared, .global, the word again through .shared::cta
        out[8 * t:8 * t + 8] = [v, 0, 0, 0, 1, 1, 0, v]
    write('one_cta.lanes.json', {"block": [40, 1, 1], "buffers": {"out": {"type": "u32", "count": len(out)}},
                                 "params": {"out": "@out"}})
    write('one_cta.expect.json', {"buffers": {"out": out}})


def fault_case(name, text, exit=3, threads=64, extra=None):
    write(name + '.lanes.json', dict({"block": [threads, 1, 1]}, **(extra or {})))
    write(name + '.expect.json', {"exit": exit, "diagnostic": text})


one_cta_case()
fault_case('wait_unarrived', "waits at 'barrier.cluster.wait' without having arrived (barrier.cluster.arrive) since its "
           "last wait")
fault_case('arrive_twice', "arrives at the cluster barrier ('barrier.cluster.arrive.aligned') again before the barrier "
           "has completed")
fault_case('bad_rank', "'ld.shared::cluster.u32' at 0x10000000: a .shared::cluster address of CTA rank 1, but the "
           "cluster has 1 CTA")
fault_case('deadlock', "wait here for every non-exited thread of the cluster (1 CTA) to arrive at the cluster barrier; "
           "32 of 64 have arrived")
fault_case('mapa_outside', "mapa to a CTA rank outside the cluster")
fault_case('st_async_one', "'st.async.shared::cluster.mbarrier::complete_tx::bytes.u32' in a cluster of one CTA: the "
           "PTX ISA requires a cluster of more", threads=1)
def exchange_case():
    grid, block, cluster = 8, 64, 4
    out = []
    for cta in range(grid):
        rank = cta % cluster
        out += [((rank + 1) % cluster) * 1000 + t for t in range(block)]
    write('exchange.lanes.json', {"grid": [grid, 1, 1], "block": [block, 1, 1], "cluster": [cluster, 1, 1],
                                  "buffers": {"out": {"type": "u32", "count": len(out)}}, "params": {"out": "@out"}})
    write('exchange.expect.json', {"buffers": {"out": out}})


def st_async_cases():
    pair = {"grid": [2, 1, 1], "cluster": [2, 1, 1]}
    # out starts 7, 7, 7, every byte defined (a buffer without shadow bytes until written: the undefined
    # words stored by a CTA of the gang must reach it)
    for name, out in (('st_async', [11, 22, 7]), ('st_async_nowait', [None, None, 7])):
        write(name + '.lanes.json', dict(pair, block=[1, 1, 1], buffers={"out": {"type": "u32", "data": [7, 7, 7]}},
                                         params={"out": "@out"}))
        write(name + '.expect.json', {"buffers": {"out": out}})
    fault_case('exited', "the shared memory of CTA rank 1 of the cluster, which has exited", threads=32, extra=pair)
    fault_case('cta_space', "the shared memory of CTA rank 1 of the cluster, which .shared::cta does not reach",
               threads=1, extra=pair)
    fault_case('cluster_deadlock', "every non-exited thread of the cluster (2 CTAs) to arrive at the cluster barrier; "
               "1 of 2 has arrived", threads=1, extra=pair)


exchange_case()
st_async_cases()
hist_case('histogram', 1, 1000, [4, 2, 1], [48, 1, 1], [2, 2, 1], 64, {"in": "@in", "n": 1000, "out": "@out"})
hist_case('histogram_cg', 2, 1500, [8, 1, 1], [64, 1, 1], [4, 1, 1], 64,
          ["@in", 1500, "@out", 64], {"dynamic_shared": 64})
sregs_case('sregs', True)
sregs_case('sregs_reqn', False)   # .reqnctapercluster's shape, none launched: an explicit cluster too
