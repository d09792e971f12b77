#!/usr/bin/env python3
"""check_report.py CSV JSON TABLE — ptxopt-tune's three outputs agree and are complete.

Checks: the CSV header is exactly the documented one; every CSV row, JSON
variant and table line describe the same variants (same ids, kernels,
registers, status; the CSV's "cached" rows are the JSON's "cache"); every
variant has every JSON field, numbers as JSON numbers (a dimension's
value too, when it is one); each tuned kernel
has exactly one best variant, and a measured best is the fastest measured
one; a failed variant has an error and no time.  Prints a summary line."""
import csv
import json
import math
import sys

CSV_FIELDS = ("id,kernel,baseline,maxnreg,pipeline,status,duplicate_of,regs,spill_stores,spill_loads,stack,smem,"
              "barriers,blocks_per_sm,occupancy,limit,predicted_rank,predicted_cycles,predicted_cycles_dynamic,bottleneck,"
              "confidence,runs,time_median,times,best,ptx,cubin,error,code_hash,measure").split(",")
JSON_FIELDS = ["id", "baseline", "values", "pipeline", "status", "duplicate_of", "regs", "spill_stores", "spill_loads",
               "stack", "smem", "barriers", "blocks_per_sm", "occupancy", "limit", "predicted_rank", "predicted_cycles",
               "predicted_cycles_dynamic", "bottleneck", "confidence", "times", "time_median", "best", "ptx", "cubin",
               "code_hash", "error"]
KERNEL_FIELDS = ["name", "skipped", "block", "block_from", "universal", "smem_static", "smem_dynamic", "default_regs",
                 "floor_regs", "top_regs", "top_clamped", "dimensions", "space", "best", "variants"]
NUMBER_FIELDS = ["regs", "spill_stores", "spill_loads", "stack", "smem", "barriers", "blocks_per_sm", "occupancy",
                 "predicted_rank", "predicted_cycles", "predicted_cycles_dynamic", "time_median"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    csv_path, json_path, table_path = sys.argv[1:4]
    rows = list(csv.DictReader(open(csv_path)))
    cached_rows = [r for r in rows if r["status"] == "cached"]
    rows = [r for r in rows if r["status"] != "cached"]
    header = open(csv_path).readline().strip().split(",")
    if header != CSV_FIELDS:
        fail("CSV header %s" % header)
    rep = json.load(open(json_path))
    for key in ("input", "arch", "mode", "measure", "repeat", "output", "kernels"):
        if key not in rep:
            fail("JSON lacks %s" % key)
    table = [l.split() for l in open(table_path) if l.strip() and not l.startswith("#")]
    variants = []
    for k in rep["kernels"]:
        for key in KERNEL_FIELDS:
            if key not in k:
                fail("kernel %s lacks %s" % (k.get("name"), key))
        bests = [v for v in k["variants"] if v["best"]]
        if k["skipped"] is None and len(bests) != 1:
            fail("kernel %s has %d best variants" % (k["name"], len(bests)))
        if bests and k["best"] != bests[0]["id"]:
            fail("kernel %s: best %s but variant %s is marked" % (k["name"], k["best"], bests[0]["id"]))
        timed = [v for v in k["variants"] if v["time_median"] is not None]
        if rep["mode"] == "measure" and bests and timed:
            fastest = min(v["time_median"] for v in timed)
            if bests[0]["time_median"] is None or bests[0]["time_median"] > fastest:
                if not bests[0]["baseline"]:
                    fail("kernel %s: best is not the fastest" % k["name"])
        for v in k["variants"]:
            for key in JSON_FIELDS:
                if key not in v:
                    fail("variant %s lacks %s" % (v.get("id"), key))
            if v["status"].endswith("failed") and (not v["error"] or v["time_median"] is not None):
                fail("failed variant %d: error %r, time %r" % (v["id"], v["error"], v["time_median"]))
            if v["status"] in ("ok", "best") and rep["mode"] == "measure" and len(v["times"]) != rep["repeat"]:
                fail("variant %d has %d times, not %d" % (v["id"], len(v["times"]), rep["repeat"]))
            if v["time_median"] is not None and not math.isfinite(v["time_median"]):
                fail("variant %d: time %r" % (v["id"], v["time_median"]))
            for key in NUMBER_FIELDS:
                if v[key] is not None and not isinstance(v[key], (int, float)):
                    fail("variant %d: %s is %r, not a number" % (v["id"], key, v[key]))
            for name, val in v["values"].items():
                if isinstance(val, str) and val.lstrip("-").isdigit():
                    fail("variant %d: the value of %s is the string %r, not a number" % (v["id"], name, val))
            variants.append((k["name"], v))
    if len(cached_rows) != len(rep.get("cache", [])):
        fail("%d cached CSV rows, %d JSON cache entries" % (len(cached_rows), len(rep.get("cache", []))))
    if not (len(rows) == len(variants) == len(table)):
        fail("%d CSV rows, %d JSON variants, %d table lines" % (len(rows), len(variants), len(table)))
    for row, (kname, v), line in zip(rows, variants, table):
        if int(row["id"]) != v["id"] or int(line[0]) != v["id"] or row["kernel"] != kname or line[1] != kname:
            fail("variant %d: id/kernel differ between outputs" % v["id"])
        regs = "" if v["regs"] is None else str(v["regs"])
        if row["regs"] != regs or line[3] != (regs or "-"):
            fail("variant %d: registers differ (%r, %r, %r)" % (v["id"], row["regs"], regs, line[3]))
        if row["status"] != v["status"]:
            fail("variant %d: status differs" % v["id"])
    print("report ok: %d kernels, %d variants, %d measured, %d failed" %
          (len(rep["kernels"]), len(variants), sum(v["time_median"] is not None for _, v in variants),
           sum(v["status"].endswith("failed") for _, v in variants)))


if __name__ == "__main__":
    main()
