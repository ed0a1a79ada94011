#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# One lane of `make check` (see the Makefile's `check`). A lane runs its own jobs in order, then
# the jobs the other lane has not started yet, from the end of that lane's list: each list starts
# with its longest job, so the lane that is done first takes the short ones left over and neither
# lane waits idle for the other. A job is claimed by creating its folder under
# test-results/lanes/claims (mkdir is atomic), so each job runs once, in whichever lane gets it.
# Each job is `make check-job-JOB`; its start, wall time and CPU time are appended to
# test-results/lanes/timeline, which tools/lane-timeline.sh prints.
#
# Usage: tools/check-lane.sh LANE "OWN JOBS" "OTHER LANE'S JOBS"
set -u

lane=$1
read -r -a own <<< "$2"
read -r -a other <<< "$3"
dir=test-results/lanes
mkdir -p "$dir/claims"
ticks=$(getconf CLK_TCK)
status=0

# CPU seconds (user + system) of this shell's finished children: a job's make and everything it
# waited for (jest, Chromium, the guest's QEMU).
children_cpu() {
    local stat
    stat=$(< "/proc/$$/stat")
    # Fields after the command name, which is in parentheses and may hold spaces.
    read -r -a after <<< "${stat##*) }"
    echo $(( (after[13] + after[14]) / ticks ))
}

run_job() {
    local job=$1 started cpu ended
    mkdir "$dir/claims/$job" 2>/dev/null || return 0
    started=$(date +%s)
    cpu=$(children_cpu)
    echo "==== the $lane lane runs $job ===="
    local outcome=passed
    # A failed test shows in the summary of the result files; the timeline says which job failed.
    (make --no-print-directory "check-job-$job") || { status=1; outcome=failed; }
    ended=$(date +%s)
    echo "$lane $job $started $((ended - started)) $(( $(children_cpu) - cpu )) $outcome" >> "$dir/timeline"
}

for job in "${own[@]}"; do run_job "$job"; done
for job in "${other[@]}"; do run_job "$job"; done
exit $status
