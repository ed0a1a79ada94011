// SPDX-License-Identifier: LGPL-2.1-or-later
// The host-side waiter behind "Restore automatically when the rebuild finishes": ONE fixed sh
// program, never built from input. Everything variable arrives as positional arguments:
//   $1 array (mdN, from the model)  $2 sys root  $3 proc root  $4 raidtune's state folder
//   $5 seconds between polls  $6 consecutive idle polls that mean "finished"  $7 history lines kept
//
// Files in <state>/auto-restore/ (written by the arm plan, src/md/autoRestore.ts):
//   mdN.armed    "path<TAB>value" lines to write back, in restore order. Armed = this file exists;
//                removing it is the cancel: the loop ends at the next poll.
//   mdN.journal  the restore journal as it was when armed: the journal is removed after the restore
//                only if it is still that one (a change made after arming added originals this
//                waiter does not know, so the page must keep offering "Restore previous settings").
//   mdN.history  one line per poll while a sync runs: "uptime done total speed min max" (KiB, KiB/s,
//                "-" when unknown), read by the gather script so a reloaded page has the history.
//
// Why the shape:
// - It runs detached (systemd-run or setsid -f), so it closes the pipes it inherited at once: the
//   bridge's spawn then ends instead of waiting for the waiter's stdout.
// - "Finished" is sync_action reading idle (or the array gone) on $6 polls in a row: writing
//   `idle` to restart a sync makes it read idle for a moment before the kernel restarts the
//   recovery, which must not fire the restore. A frozen sync is paused, not finished.
// - Progress comes from /proc/mdstat's "(done/total)", which moves smoothly; sysfs sync_completed
//   moves in 1/16 steps. It is read with the shell's own `read` loop: no fork per poll. An array's
//   lines end at the next unindented line (the separator may be blanks only, as the kernel prints).
// - The history is trimmed to its last $7 lines once it reaches twice that: one `tail` per $7 polls.
// - A value is only written where the attribute still exists (an array that vanished has nothing
//   to restore); a write the kernel refuses keeps the journal, so the banner stays.
export const WAITER_SCRIPT = `exec </dev/null >/dev/null 2>&1
md=$1 sys=$2 proc=$3 state=$4 poll=$5 need=$6 keep=$7
dir=$state/auto-restore
armed=$dir/$md.armed copy=$dir/$md.journal hist=$dir/$md.history
mddir=$sys/block/$md/md
tab=$(printf '\\t')
value() {
  v=
  if [ -e "$1" ]; then read -r v rest < "$1"; fi
  [ -n "$v" ] || v=-
}
progress() {
  done_=- total_=- inside=
  while IFS= read -r line; do
    case $line in
      "$md : "*) inside=1 ;;
      [![:blank:]]*|"") inside= ;;
      *"% ("*/*")"*)
        if [ -n "$inside" ]; then
          p=\${line#*"% ("}; p=\${p%%")"*}; done_=\${p%/*}; total_=\${p#*/}
        fi ;;
    esac
  done < "$proc/mdstat"
}
sample() {
  value "$proc/uptime"; up=$v
  progress
  value "$mddir/sync_speed"; speed=$v
  value "$mddir/sync_speed_min"; min=$v
  value "$mddir/sync_speed_max"; max=$v
  echo "$up $done_ $total_ $speed $min $max" >> "$hist"
  lines=$((lines + 1))
  if [ "$lines" -ge $((keep * 2)) ]; then
    tail -n "$keep" "$hist" > "$hist.new" && mv -f "$hist.new" "$hist"
    lines=$keep
  fi
}
restore() {
  failed=
  while IFS=$tab read -r path val; do
    case $path in
      *..*) continue ;;
      /sys/*) target=$sys\${path#/sys} ;;
      /proc/*) target=$proc\${path#/proc} ;;
      *) continue ;;
    esac
    [ -e "$target" ] || continue
    printf '%s\\n' "$val" > "$target" || failed=1
  done < "$armed"
  if [ -z "$failed" ] && cmp -s "$copy" "$state/restore.json"; then rm -f "$state/restore.json"; fi
}
rm -f "$hist"
lines=0 idle=0
while [ -f "$armed" ]; do
  now=gone
  if [ -e "$mddir/sync_action" ]; then read -r now rest < "$mddir/sync_action"; fi
  case $now in
    idle|gone) idle=$((idle + 1)) ;;
    frozen) idle=0 ;;
    *) idle=0; sample ;;
  esac
  if [ "$idle" -ge "$need" ]; then restore; break; fi
  sleep "$poll"
done
rm -f "$armed" "$copy" "$hist"
exit 0
`;

/** Defaults the arm plan passes: poll every 5 s, finished after 3 idle polls (>= 10 s), 1 h of history at most. */
export const WAITER_POLL_SECONDS = 5;
export const WAITER_IDLE_POLLS = 3;
export const WAITER_HISTORY_LINES = 360;
