// SPDX-License-Identifier: LGPL-2.1-or-later
// The one fixed program a refresh runs on the host. It reads everything raidtune needs in a
// single spawn: shell globbing plus ONE grep, so the cost stays flat however many arrays exist
// (a loop forking `cat` per file costs seconds at 128 arrays). Data never enters the script text:
// the roots arrive as positional arguments. Output: section markers (`@@...`) and grep's
// `relative/path:line` records; see parseGatherOutput() in src/md/snapshot.ts.
//
// Arguments: $1 proc root, $2 sys root, $3 "pagesize" to also report the page size (asked once),
// $4 raidtune's state folder on the host (the restore journal), $5 the sysctl.d, $6 the udev
// rules and $7 the modules-load.d folder (the settings kept after a reboot), $8 "fast" to leave
// out what a sync does not change (`@@reused sys settings`: the page reuses its last full read), $9
// the disks whose /proc/diskstats lines a fast read takes, as "sda|sdb" (empty: all of them), ${10}
// udev's database folder (the disks' by-path addresses).

import { HISTORY_DIR, HISTORY_ROOT } from '../md/history';
import { PLAN_RECORD_FILE } from '../md/planRecord';
import { REPAIR_FLOW_DIR } from '../md/repairFlowRecord';
import { WINDOW_LIMITS_ARMED, WINDOW_LIMITS_HELD } from '../md/alerts/windowLimits';
import { PAUSED_CHECK_FILES } from '../md/alerts/pausedChecks';
import { ARRAY_SETTINGS, DISK_SETTINGS, GLOBAL_SETTINGS } from '../md/settings/registry';
import { UDEV_ID_PATH, UDEV_ROOT } from '../md/udevData';
import { MODULES_LOAD_FILE, SYSCTL_FILE, UDEV_RULES_FILE } from '../md/tuning/keptFiles';

/** The tunables' files (src/md/settings/registry.ts): md's relative to md/, the others as they are. */
const tunables = [...Object.values(ARRAY_SETTINGS), ...Object.values(DISK_SETTINGS)];
const mdTunables = (syncRead: boolean) => tunables
    .filter(s => s.attribute.startsWith('md/') && s.syncRead === syncRead).map(s => s.attribute.slice('md/'.length));

/**
 * md attributes read per array (relative to /sys/block/mdX/md/). Feature-detected: absent ones
 * are skipped. A fast read (every refresh while something syncs) takes only the ones a sync
 * changes; a full read (when src/md/modelBuilder.ts asks: at least every few refreshes, after
 * every change raidtune makes, at once when /proc/mdstat shows arrays or members changed) takes all of them.
 */
export const ARRAY_SYNC_ATTRIBUTES: readonly string[] = [
    'array_state', 'degraded', 'raid_disks', 'sync_action', 'last_sync_action', 'sync_completed', 'sync_speed',
    'mismatch_cnt', 'reshape_position', 'resync_start', 'sync_max', 'stripe_cache_active', ...mdTunables(true),
    // The lockless bitmap's chunk counts: a resync turns its marked chunks clean (src/md/llbitmapScope.ts).
    'llbitmap/bits',
];
export const ARRAY_SETTING_ATTRIBUTES: readonly string[] = [
    'level', 'chunk_size', 'layout', 'metadata_version', 'component_size', 'uuid', 'stripe_size', 'consistency_policy',
    'bitmap_type', 'bitmap/location', 'bitmap/chunksize', ...mdTunables(false),
];
export const ARRAY_ATTRIBUTES: readonly string[] = [...ARRAY_SYNC_ATTRIBUTES, ...ARRAY_SETTING_ATTRIBUTES];

/**
 * Attributes read per member (relative to /sys/block/mdX/md/dev-NAME/), at full reads: a member's
 * role changes show in /proc/mdstat first ((F), (S), [UU_]), which makes the next read a full one.
 */
export const MEMBER_ATTRIBUTES = ['state', 'slot', 'errors', 'recovery_start', 'offset'] as const;

/**
 * Attributes read for every block device (relative to /sys/block/NAME/), at full reads. `dev`
 * (MAJOR:MINOR) names the device's file in udev's database.
 */
export const DISK_ATTRIBUTES: readonly string[] = [
    'size', 'ro', 'dev', 'queue/rotational', 'device/wwid', 'wwid', 'serial', 'device/serial', 'mq/0/nr_tags',
    ...tunables.filter(s => !s.attribute.startsWith('md/')).map(s => s.attribute),
];

/** Read per partition (relative to /sys/block/DISK/PART/): marks it a partition, and where it starts. */
export const PARTITION_ATTRIBUTES = ['partition', 'start'] as const;

export const PROC_FILES: readonly string[] = [
    'mdstat', 'meminfo', ...Object.values(GLOBAL_SETTINGS).map(s => s.path.slice('/proc/'.length)),
];

/**
 * /proc/uptime dates the refresh (src/md/model.ts). It is read by the same grep as /proc/diskstats,
 * right before it: the disks' counters over a window are divided by its uptimes, and a process
 * spawned in between would date them late by as much as the host took to start it (tens of ms under
 * load; a whole tick of the simulated host, whose counters step once a tick). Its one line, two
 * decimal numbers, is what the first pattern of a fast read keeps; no diskstats line looks like it.
 */
const UPTIME_LINE = '^[0-9.]+ [0-9.]+$';

/**
 * Every process's name, to spot programs known for heavy I/O (src/md/diagnosis/backgroundJobs.ts):
 * a few hundred one-line files, in the same grep.
 */
export const PROCESS_NAMES = '[0-9]*/comm';

/**
 * Files read from raidtune's own state folder (canonical path /raidtune-state/NAME): the restore
 * journal, the record of a plan being applied (src/md/planRecord.ts), and the armed automatic
 * restores with their waiters' history (src/md/waiterScript.ts), the guided repairs (src/md/repairFlow.ts),
 * the values a check window's end writes back and those it wrote (src/md/alerts/ownWindow.ts), and
 * the checks it paused with why one waits (src/md/alerts/pausedChecks.ts).
 */
export const STATE_FILES = ['restore.json', PLAN_RECORD_FILE, 'auto-restore/*.armed', 'auto-restore/*.history',
    `${REPAIR_FLOW_DIR}/*.json`, WINDOW_LIMITS_ARMED, WINDOW_LIMITS_HELD, ...PAUSED_CHECK_FILES] as const;

/**
 * The history of sync operations (src/md/history.ts; canonical paths /raidtune-history/NAME), at
 * full reads only: it changes when an operation ends, which a read 10 s late shows well enough.
 */
export const HISTORY_FILES = ['*.jsonl', 'last-run'] as const;

/**
 * The files "Keep after reboot" writes (canonical paths /raidtune-sysctl/NAME, /raidtune-udev/NAME,
 * /raidtune-modules/NAME).
 */
export const SYSCTL_FILES = [SYSCTL_FILE] as const;
export const UDEV_FILES = [UDEV_RULES_FILE] as const;
export const MODULES_LOAD_FILES = [MODULES_LOAD_FILE] as const;

/** What the fast read takes of /sys, and what only a full read adds (its `sys settings` section). */
const sysSyncGlobs = ARRAY_SYNC_ATTRIBUTES.map(a => `block/md*/md/${a}`);
const sysSettingGlobs = [
    ...ARRAY_SETTING_ATTRIBUTES.map(a => `block/md*/md/${a}`),
    ...MEMBER_ATTRIBUTES.map(a => `block/md*/md/dev-*/${a}`),
    ...DISK_ATTRIBUTES.map(a => `block/*/${a}`),
    ...PARTITION_ATTRIBUTES.map(a => `block/*/*/${a}`),
];

/**
 * The disks that sit in an enclosure's slot (the kernel's ses driver: /sys/class/enclosure/ENCLOSURE/
 * COMPONENT/, whose device/ is the disk's SCSI device), at full reads, keyed by the disk:
 * /enclosure/sdb/{enclosure,component,slot,locate}. Not grep's path:line records, as the enclosure's
 * name is a SCSI address with colons in it; \`read\` is the shell's own, no process per slot.
 */
export const ENCLOSURE_ROOT = 'enclosure';
const ENCLOSURE_SLOTS = `for d in class/enclosure/*/*/device/block/*; do
      [ -d "$d" ] || continue
      s=\${d%/device/block/*}; e=\${s#class/enclosure/}; b=\${d##*/}
      n=; l=; read -r n 2>/dev/null < "$s/slot"; read -r l 2>/dev/null < "$s/locate"
      printf '%s/enclosure:%s\\n%s/component:%s\\n%s/slot:%s\\n%s/locate:%s\\n' "$b" "\${e%%/*}" "$b" "\${e#*/}" "$b" "$n" "$b" "$l"
    done`;

/**
 * The by-path address of every block device, from udev's database (a file per device: bMAJOR:MINOR
 * for block devices), at full reads: only the ID_PATH line of each (-m 1), so a few lines for a
 * host's disks and partitions, not the whole database. grep names each file with its colon: the
 * record `b8:0:E:ID_PATH=pci-...` is filed under /udev/b8 (src/md/udevData.ts reads it). An empty
 * folder argument is not `cd`'s: dash's `cd ""` stays where it is.
 */
const UDEV_ID_PATHS = `if [ "$8" = fast ]; then
  echo "@@reused ${UDEV_ROOT}"
elif [ -n "\${10}" ] && cd "\${10}" 2>/dev/null; then
  echo "@@root ${UDEV_ROOT}"
  grep -H -s -m 1 '^${UDEV_ID_PATH}' /dev/null b*:*
fi`;

// /dev/null keeps grep from reading stdin when every glob is empty; -s hides the
// "No such file" noise of unmatched globs (attributes that a level or kernel lacks).
export const GATHER_SCRIPT = `
if [ "$3" = pagesize ]; then echo "@@pagesize $(getconf PAGESIZE 2>/dev/null)"; fi
# sd_booted()'s test: the waiter of an automatic restore then runs as a transient systemd unit.
if [ -d /run/systemd/system ] && command -v systemd-run >/dev/null 2>&1; then echo "@@systemd"; fi
if cd "$1" 2>/dev/null; then
  echo "@@root proc"
  grep -H -s '' /dev/null ${PROC_FILES.join(' ')} ${PROCESS_NAMES}
  if [ -n "$9" ]; then grep -H -s -E -e '${UPTIME_LINE}' -e " ($9) " uptime diskstats; else grep -H -s '' uptime diskstats; fi
else
  echo "@@missing proc"
fi
if cd "$2" 2>/dev/null; then
  echo "@@root sys"
  grep -H -s '' /dev/null ${sysSyncGlobs.join(' ')}
  if [ "$8" = fast ]; then
    echo "@@reused sys settings"
    echo "@@reused ${ENCLOSURE_ROOT}"
  else
    echo "@@root sys settings"
    grep -H -s '' /dev/null ${sysSettingGlobs.join(' ')}
    echo "@@root ${ENCLOSURE_ROOT}"
    ${ENCLOSURE_SLOTS}
  fi
else
  echo "@@missing sys"
fi
${UDEV_ID_PATHS}
if cd "$4" 2>/dev/null; then
  echo "@@root raidtune-state"
  grep -H -s '' /dev/null ${STATE_FILES.join(' ')}
fi
if [ "$8" = fast ]; then
  echo "@@reused ${HISTORY_ROOT}"
elif cd "$4/${HISTORY_DIR}" 2>/dev/null; then
  echo "@@root ${HISTORY_ROOT}"
  grep -H -s '' /dev/null ${HISTORY_FILES.join(' ')}
fi
if cd "$5" 2>/dev/null; then
  echo "@@root raidtune-sysctl"
  grep -H -s '' /dev/null ${SYSCTL_FILES.join(' ')}
fi
if cd "$6" 2>/dev/null; then
  echo "@@root raidtune-udev"
  grep -H -s '' /dev/null ${UDEV_FILES.join(' ')}
fi
if cd "$7" 2>/dev/null; then
  echo "@@root raidtune-modules"
  grep -H -s '' /dev/null ${MODULES_LOAD_FILES.join(' ')}
fi
echo "@@end"
exit 0
`;
