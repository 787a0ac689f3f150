#!/usr/bin/env python3
"""Turns the benchmark package's Influx CSV export into one line per metric, with ratios and targets.

Usage: summary.py RESULTS_FOLDER. Every metric is the median (p50 row) of its benchmark's samples.
"""
import csv
import glob
import sys

# name, benchmark, custom metric, unit, scale, baseline benchmark, baseline label, higher is better, target ratio
METRICS = [
    ("decode", "decode", "msg/s", "msg/s", 1, "decode (JSONSerialization)", "JSONSerialization", True, ">= 3x"),
    ("encode", "encode", "msg/s", "msg/s", 1, "encode (JSONSerialization)", "JSONSerialization", True, None),
    ("roundtrip.p50", "roundtrip", "p50_us", "us", 1, "roundtrip (raw WebSocket echo)", "raw WebSocket echo", False, "<= 2x"),
    ("roundtrip.p99", "roundtrip", "p99_us", "us", 1, "roundtrip (raw WebSocket echo)", "raw WebSocket echo", False, "<= 3x"),
    ("roundtrip.client.p50", "roundtrip (ChatClient)", "p50_us", "us", 1, "roundtrip (raw WebSocket echo)", "raw WebSocket echo", False, None),
    ("roundtrip.client.p99", "roundtrip (ChatClient)", "p99_us", "us", 1, "roundtrip (raw WebSocket echo)", "raw WebSocket echo", False, None),
    ("roundtrip.memory.p50", "roundtrip (in-memory store)", "p50_us", "us", 1, "roundtrip (ChatClient)", "ChatClient, SQLite store", False, None),
    ("roundtrip.pizza.p50", "roundtrip (pizza skill)", "p50_us", "us", 1, "roundtrip (ChatClient)", "ChatClient, echo skill", False, None),
    ("roundtrip.floor.p50", "roundtrip (durable echo)", "p50_us", "us", 1, "roundtrip (raw WebSocket echo)", "raw WebSocket echo", False, None),
    ("roundtrip.floor.p99", "roundtrip (durable echo)", "p99_us", "us", 1, "roundtrip (raw WebSocket echo)", "raw WebSocket echo", False, None),
    ("roundtrip.storage", "roundtrip.storage", "p50_us", "us", 1, "roundtrip (raw WebSocket echo)", "raw WebSocket echo", False, None),
    ("server.throughput", "server", "msg/s", "msg/s", 1, "server (raw WebSocket echo)", "raw WebSocket echo", True, ">= 0.5x"),
    ("server.p99", "server", "p99_us", "ms", 1000, "server (raw WebSocket echo)", "raw WebSocket echo", False, None),
    ("server.cpu", "server", "cpu_ns", "us/msg", 1000, "server (raw WebSocket echo)", "raw WebSocket echo", False, None),
    ("server.clientCpu", "server", "client_cpu_ns", "us/msg", 1000, "server (raw WebSocket echo)", "raw WebSocket echo", False, None),
    ("server.floor.throughput", "server (durable echo)", "msg/s", "msg/s", 1, "server (raw WebSocket echo)", "raw WebSocket echo", True, None),
    ("server.floor.cpu", "server (durable echo)", "cpu_ns", "us/msg", 1000, "server (raw WebSocket echo)", "raw WebSocket echo", False, None),
    ("cluster.floor.throughput", "cluster.floor", "msg/s", "msg/s", 1, "server", "one node on SQLite", True, None),
    ("cluster.floor.p50", "cluster.floor", "p50_us", "ms", 1000, "server", "one node on SQLite", False, None),
    ("cluster.floor.cpu", "cluster.floor", "cpu_ns", "us/msg", 1000, None, None, False, None),
    ("cluster.floor.dbCpu", "cluster.floor", "db_cpu_ns", "us/msg", 1000, None, None, False, None),
    ("cluster.postgres.throughput", "cluster.postgres", "msg/s", "msg/s", 1, "server", "one node on SQLite", True, ">= 0.3x"),
    ("cluster.postgres.vsFloor", "cluster.postgres", "msg/s", "msg/s", 1, "cluster.floor", "the PostgreSQL floor", True, ">= 0.5x"),
    ("cluster.postgres.cpu", "cluster.postgres", "cpu_ns", "us/msg", 1000, "cluster.floor", "the floor's process", False, None),
    ("cluster.postgres.dbCpu", "cluster.postgres", "db_cpu_ns", "us/msg", 1000, "cluster.floor", "PostgreSQL under the floor", False, None),
    ("cluster.postgres.roundTrips", "cluster.roundTrips", "trips_milli", "/msg", 1000, "cluster.roundTrips:floor_trips_milli", "the floor's", False, None),
    ("cluster.floor.roundTrips", "cluster.roundTrips", "floor_trips_milli", "/msg", 1000, None, None, False, None),
    ("cluster.postgres.p50", "cluster.postgres", "p50_us", "ms", 1000, "server", "one node on SQLite", False, None),
    ("cluster.postgres.p99", "cluster.postgres", "p99_us", "ms", 1000, "server", "one node on SQLite", False, None),
    ("cluster.nginx2.throughput", "cluster.nginx2", "msg/s", "msg/s", 1, "cluster.nginx1", "one node behind nginx", True, ">= 1x"),
    ("cluster.nginx2.p50", "cluster.nginx2", "p50_us", "ms", 1000, "cluster.nginx1", "one node behind nginx", False, None),
    ("cluster.nginx2.p99", "cluster.nginx2", "p99_us", "ms", 1000, "cluster.nginx1", "one node behind nginx", False, None),
    ("connection.memory", "connection", "bytes", "KiB", 1024, "connection (raw WebSocket echo)", "raw WebSocket echo", False, "<= 1.1x"),
    ("upload.chat.p99", "upload.chat", "p99_us", "us", 1, "upload.chat (no uploads)", "chat without uploads", False, "<= 1.5x"),
    ("upload.throughput", "upload.chat", "MiB/s", "MiB/s", 1, None, None, True, None),
    ("voiceflow.transitions", "voiceflow.transitions", "/s", "/s", 1, None, None, True, None),
    ("voiceflow.validate1000", "voiceflow.validate1000", "us", "ms", 1000, None, None, False, None),
    ("speech.firstPartial", "speech.realtime", "partial_us", "ms", 1000, "speech.stream (pocketsphinx_continuous)", "whole-file pocketsphinx_continuous", False, None),
    ("speech.endToFinal", "speech.realtime", "final_us", "ms", 1000, "speech.stream (pocketsphinx_continuous)", "whole-file pocketsphinx_continuous", False, None),
    ("speech.rtf", "speech.stream", "rtf_milli", "x", 1000, "speech.stream (pocketsphinx_continuous)", "whole-file pocketsphinx_continuous", False, None),
    ("tts.firstByte", "tts.stream", "us", "ms", 1000, "tts.stream (whole utterance)", "whole utterance to a file", False, None),
    ("transcript.load10k", "transcript.load10k", "us", "ms", 1000, "transcript.load10k (JSONSerialization)", "JSONSerialization", False, None),
    ("llm.firstFrame.p50", "llm.firstFrame", "p50_us", "ms", 1000, None, None, False, None),
    ("llm.firstFrame.p99", "llm.firstFrame", "p99_us", "ms", 1000, None, None, False, None),
    ("llm.streams.throughput", "llm.streams", "chunk/s", "chunk/s", 1, "llm.streams (raw pass-through proxy)", "raw pass-through proxy", True, None),
    ("llm.streams.cpu", "llm.streams", "cpu_ns", "us/chunk", 1000, "llm.streams (raw pass-through proxy)", "raw pass-through proxy", False, None),
    ("llm.streams.p50", "llm.streams", "p50_us", "ms", 1000, "llm.streams (raw pass-through proxy)", "raw pass-through proxy", False, None),
    ("llm.streams.faulty", "llm.streams", "faulty", "chunks", 1, None, None, False, None),
    ("llm.streams.proxy.cpu", "llm.streams (raw pass-through proxy)", "cpu_ns", "us/chunk", 1000, None, None, False, None),
]

# Absolute targets from issue 23 (value in the unit printed, higher is better); the others are ratios, above.
ABSOLUTE = {
    "voiceflow.transitions": (5_000_000, True),
    "transcript.load10k": (15, False),
    "llm.firstFrame.p50": (5, False),  # issue 36: Parley's overhead on a model's first chunk, 5 ms at the median
}


def load(folder):
    medians = {}
    for path in glob.glob(f"{folder}/*.influx.csv"):
        with open(path, newline="") as file:
            for row in csv.DictReader(line for line in file if not line.startswith("#")):
                if row.get("percentile") in ("50.0", "50", "p50"):
                    medians[(row["test"], row["metric"])] = float(row["value"])
    return medians


def find(medians, test, metric):
    for (name, found), value in medians.items():
        if name == test and (found == metric or found.startswith(metric)):
            return value
    return None


def number(value):
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def main():
    medians = load(sys.argv[1])
    if not medians:
        sys.exit(f"summary.py: no results in {sys.argv[1]}")
    missed = []
    for name, test, metric, unit, scale, baseline, label, higher, target in METRICS:
        value = find(medians, test, metric)
        if value is None:
            continue
        line = f"{name}: {number(value / scale)} {unit}"
        # A baseline "test:metric" is another metric of a benchmark (the floor's round trips beside the node's).
        base_test, _, base_metric = (baseline or "").partition(":")
        base = find(medians, base_test, base_metric or metric) if baseline else None
        if base:
            ratio = value / base
            line += f" ({ratio:.2f}x {label})"
            if target:
                bound = float(target.split()[1].rstrip("x"))
                if (ratio < bound) if higher else (ratio > bound):
                    missed.append(f"{name} {ratio:.2f}x (target {target})")
        if name in ABSOLUTE:
            bound, larger = ABSOLUTE[name]
            shown = value / scale
            if (shown < bound) if larger else (shown > bound):
                missed.append(f"{name} {number(shown)} {unit} (target {'>=' if larger else '<='} {bound} {unit})")
        print(line)
    print("targets: all met" if not missed else "targets missed: " + "; ".join(missed))


main()
