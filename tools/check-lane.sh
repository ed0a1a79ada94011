#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# One lane of `make check` (see the Makefile's `check`). A lane runs its own jobs in order, then
# the jobs of the list it may take from that no lane has started yet, in that list's order: a
# lane that is done takes work left over and none waits idle for the others. A job is claimed by
# creating its folder under test-results/lanes/claims (mkdir is atomic), so each job runs once, in
# whichever lane gets it.
# Each job is `make check-job-JOB`; its start, wall time and CPU time are appended to
# test-results/lanes/timeline, which tools/lane-timeline.sh prints. The CPU time is the job's
# cgroup's where this machine lets root make one (cgroup v2, or v1's cpuacct): every process the
# job started counts, Chromium's renderers and other orphans too. Elsewhere it is the rusage of the
# processes the job waited for, which misses those (about half of a browser tier's).
#
# Usage: tools/check-lane.sh LANE "OWN JOBS" "JOBS IT MAY TAKE"
set -u

lane=$1
read -r -a own <<< "$2"
read -r -a other <<< "$3"
dir=test-results/lanes
mkdir -p "$dir/claims"
ticks=$(getconf CLK_TCK)
status=0

# A cgroup of its own for a job, printed; nothing where none can be made.
job_cgroup() {
    local base
    if [ -f /sys/fs/cgroup/cgroup.controllers ]; then base=/sys/fs/cgroup
    elif [ -w /sys/fs/cgroup/cpuacct ]; then base=/sys/fs/cgroup/cpuacct
    else return 0; fi
    mkdir "$base/raidtune-check-$$-$1" 2>/dev/null && echo "$base/raidtune-check-$$-$1"
    return 0
}

# The job's CPU scheduler group (cgroup v1's `cpu` hierarchy, or with cgroup v2 the job's one
# group, with the cpu controller turned on), printed, with its weight set. A job in a scheduler
# group of its own is out of the kernel's autogroups (one per session, each given an equal share
# of the CPUs): in them the guest's QEMU and each Chromium, which start sessions of their own, each
# weighed as much as jest, cockpit-ws and the simulated host together, and kernel 6.1's tier took
# 384 s beside browser 287 against 269 s alone (doc/testing.md). The kernel jobs weigh four times
# as much as the others: their lane is the longer one, mostly one emulated CPU that waits for
# nothing else, and every second it waits costs CPU again (an idle guest, a page refreshing, polls).
job_cpu_cgroup() {
    local group weight=1
    case $1 in vm-*|bench) weight=4 ;; esac
    if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
        grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
        group=$2
        [ -n "$group" ] && echo $((100 * weight)) > "$group/cpu.weight" 2>/dev/null
    elif [ -w /sys/fs/cgroup/cpu ] && [ ! /sys/fs/cgroup/cpu -ef /sys/fs/cgroup/cpuacct ]; then
        group=/sys/fs/cgroup/cpu/raidtune-check-$$-$1
        mkdir "$group" 2>/dev/null || return 0
        echo $((1024 * weight)) > "$group/cpu.shares" 2>/dev/null
        echo "$group"
    fi
    return 0
}

# CPU seconds a cgroup's processes used.
cgroup_cpu() {
    if [ -f "$1/cpu.stat" ]; then awk '$1 == "usage_usec" { print int($2 / 1000000) }' "$1/cpu.stat"
    else echo $(( $(< "$1/cpuacct.usage") / 1000000000 )); fi
}

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
    local job=$1 started cpu ended cgroup cpu_cgroup used
    mkdir "$dir/claims/$job" 2>/dev/null || return 0
    started=$(date +%s)
    cpu=$(children_cpu)
    cgroup=$(job_cgroup "$job")
    cpu_cgroup=$(job_cpu_cgroup "$job" "$cgroup")
    echo "==== the $lane lane runs $job ===="
    local outcome=passed
    # A failed test shows in the summary of the result files; the timeline says which job failed.
    # The job's shell joins its cgroup before it starts anything, and says so.
    rm -f "$dir/in-cgroup-$lane"
    (
        if [ -n "$cgroup" ] && echo "$BASHPID" > "$cgroup/cgroup.procs" 2>/dev/null; then touch "$dir/in-cgroup-$lane"; fi
        if [ -n "$cpu_cgroup" ]; then echo "$BASHPID" > "$cpu_cgroup/cgroup.procs" 2>/dev/null; fi
        exec make --no-print-directory "check-job-$job"
    ) || { status=1; outcome=failed; }
    ended=$(date +%s)
    used="$(( $(children_cpu) - cpu )) waited"
    if [ -e "$dir/in-cgroup-$lane" ]; then used="$(cgroup_cpu "$cgroup") cgroup"; fi
    # A process the job left running keeps its cgroup: then it stays.
    if [ -n "$cgroup" ]; then rmdir "$cgroup" 2>/dev/null; fi
    if [ -n "$cpu_cgroup" ]; then rmdir "$cpu_cgroup" 2>/dev/null; fi
    echo "$lane $job $started $((ended - started)) $used $outcome" >> "$dir/timeline"
}

for job in "${own[@]}"; do run_job "$job"; done
for job in "${other[@]}"; do run_job "$job"; done
exit $status
