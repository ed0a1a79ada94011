#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Where `make check`'s time went: each job of the lanes (tools/check-lane.sh) with its start
# (minutes after the first job started), wall time and CPU time (its cgroup's, or "waited": only
# the processes it waited for), then each lane's length and how busy the jobs kept the machine's
# CPUs. The figures doc/testing.md gives for a run come from here.
# Usage: tools/lane-timeline.sh [test-results/lanes/timeline]
set -eu
timeline=${1:-test-results/lanes/timeline}
[ -s "$timeline" ] || exit 0
sort -k3,3n "$timeline" | awk '
    NR == 1 { t0 = $3; print "lane jobs (minutes): lane, job, start, wall, CPU (user+system, counted by), outcome" }
    {
        printf "  %-5s %-15s %5.1f %5.1f %5.1f %-7s %s\n", $1, $2, ($3 - t0) / 60, $4 / 60, $5 / 60, $6, $7
        end = $3 - t0 + $4
        if (end > laneEnd[$1]) laneEnd[$1] = end
        if (end > last) last = end
        cpu += $5
    }
    END {
        line = "lanes:"
        for (lane in laneEnd) line = line sprintf(" %s %.1f min,", lane, laneEnd[lane] / 60)
        printf "%s the jobs used %.1f CPU minutes, %.0f%% of %d CPUs over %.1f min\n", line, cpu / 60,
            100 * cpu / (cpus * last), cpus, last / 60
    }' cpus="$(nproc)"
