#!/usr/bin/env bash
# Proves the README's two commands ("The two commands") work on a fresh
# Debian 12 machine: builds a bookworm root with debootstrap, clones this
# checkout's HEAD into it and runs both commands there, exactly as the README
# writes them. Nothing but the base system and git is put into the root, so
# every other package has to come from scripts/install-deps.sh.
#
# Not part of scripts/test.sh: it downloads a Debian base system and every
# build dependency, then does a cold build and the whole test suite.
# Needs root (debootstrap, mount, chroot). See --help.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root="${KILN_FRESH_ROOT:-/var/tmp/kiln-fresh-root}"
log="${KILN_FRESH_LOG:-/var/tmp/kiln-fresh-machine.log}"
mirror="${KILN_FRESH_MIRROR:-}"
suite=bookworm
keep_root=0
only_setup=0
# Where the clone lives inside the root (a fresh machine's user's home).
clone_in_root=/root/kiln
# Written once debootstrap finished, so --keep-root never reuses a half root.
marker=.kiln-fresh-root-complete

usage() {
  cat <<EOF
Usage: scripts/check-fresh-machine.sh [options]

Builds a fresh Debian 12 (bookworm) root with debootstrap (default variant:
the standard base system, plus git), copies this machine's apt sources into
it, clones this checkout's HEAD commit (as branch main) to $clone_in_root
inside it, then runs in a chroot, in order, the two commands from README.md
section "The two commands": the main job, then the test command.

Options:
  --root DIR     where to build the root (default: $root;
                 env KILN_FRESH_ROOT). Recreated on every run unless
                 --keep-root. Left on disk afterwards for inspection.
  --keep-root    reuse a complete root from an earlier run instead of
                 recreating it (quicker, but packages installed by that run
                 stay: the machine is then no longer fresh). The clone is
                 always made anew.
  --log FILE     log of the whole run (default: $log;
                 env KILN_FRESH_LOG). Overwritten.
  --mirror URL   Debian mirror for debootstrap (default: the bookworm entry
                 of this machine's apt sources; env KILN_FRESH_MIRROR).
  --only-setup   stop after the clone and scripts/install-deps.sh in the
                 root: checks the package list in minutes, builds nothing.
  -h, --help     this text.

Takes: --only-setup about 5 minutes on a fast mirror (debootstrap 1.5,
install-deps.sh 3.5: LLVM/MLIR 22, PyTorch, ...) and 4.7 GB of disk; the
full run adds a cold build (no ccache in the root) and every test suite.
Exit status: 0 when every stage passed; otherwise non-zero, naming the stage.
EOF
}

die() { echo "check-fresh-machine: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --root) [ $# -ge 2 ] || die "--root needs a directory"; root="$2"; shift 2 ;;
    --root=*) root="${1#*=}"; shift ;;
    --log) [ $# -ge 2 ] || die "--log needs a file"; log="$2"; shift 2 ;;
    --log=*) log="${1#*=}"; shift ;;
    --mirror) [ $# -ge 2 ] || die "--mirror needs a URL"; mirror="$2"; shift 2 ;;
    --mirror=*) mirror="${1#*=}"; shift ;;
    --keep-root) keep_root=1; shift ;;
    --only-setup) only_setup=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument '$1'" ;;
  esac
done

# The root is deleted with rm -rf and matched against /proc/self/mounts
# (which escapes whitespace): insist on a plain absolute path that is not /.
root="${root%/}"
case "$root" in
  /*) ;;
  *) die "--root must be an absolute path (got '$root')" ;;
esac
if [ -z "$root" ] || [ "$root" = / ]; then die "refusing to use / as the root"; fi
[[ "$root" =~ ^[A-Za-z0-9_./+-]+$ ]] || die "--root may only contain [A-Za-z0-9_./+-]"
case "$repo/" in
  "$root"/*) die "--root must not contain the repository ($repo)" ;;
esac

[ "$(id -u)" = 0 ] || die "needs root (debootstrap, mount, chroot); run with sudo"
command -v git >/dev/null || die "needs git on this machine to clone $repo"

mkdir -p "$(dirname "$log")"
: >"$log"
# Everything from here on goes to the terminal and to the log.
exec > >(tee -a "$log") 2>&1
tee_pid=$!

# --- Stages: timed, recorded, and reported even when one fails -------------

if [ "$only_setup" = 1 ]; then
  planned=(debootstrap "apt sources" clone "scripts/install-deps.sh")
else
  planned=(debootstrap "apt sources" clone "main job" "tests")
fi
done_names=()
done_secs=()
done_results=()
current=""
current_start=0

begin_stage() {
  current="$1"
  current_start=$(date +%s)
  printf '\n== [%s] %s ==\n' "$(date +%T)" "$current"
}

record_stage() {
  done_names+=("$current")
  done_secs+=("$(($(date +%s) - current_start))")
  done_results+=("$1")
}

end_stage() {
  record_stage "${1:-ok}"
  current=""
}

fmt_secs() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

summary() {
  local i total=0
  echo
  echo "== check-fresh-machine summary =="
  printf '%-28s %10s  %s\n' stage time result
  for i in "${!done_names[@]}"; do
    printf '%-28s %10s  %s\n' "${done_names[$i]}" \
      "$(fmt_secs "${done_secs[$i]}")" "${done_results[$i]}"
    total=$((total + done_secs[i]))
  done
  for i in "${!planned[@]}"; do
    [ "$i" -lt "${#done_names[@]}" ] && continue
    printf '%-28s %10s  %s\n' "${planned[$i]}" - "not run"
  done
  printf '%-28s %10s\n' total "$(fmt_secs "$total")"
}

# --- Mounts: /proc, /sys, /dev for the chroot, always taken down again ------

# Every mount point below the root, deepest first. This also catches mounts
# left by debootstrap or by an earlier run that was killed.
mounts_under_root() {
  awk -v r="$root/" 'index($2, r) == 1 { print $2 }' /proc/self/mounts |
    sort -r
}

unmount_root() {
  local m
  while read -r m; do
    [ -n "$m" ] || continue
    # A process still running in the chroot keeps a mount busy: detach it.
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ||
      echo "check-fresh-machine: warning: could not unmount $m"
  done < <(mounts_under_root)
  if [ -n "$(mounts_under_root)" ]; then
    echo "check-fresh-machine: warning: still mounted under $root:"
    mounts_under_root
    return 1
  fi
}

mount_root() {
  mount -t proc proc "$root/proc"
  local d
  for d in sys dev; do
    mount --rbind "/$d" "$root/$d"
    # Without this, unmounting the chroot's copies (dev/pts, dev/shm, ...)
    # could propagate to this machine's own mounts when they are shared.
    mount --make-rslave "$root/$d"
  done
}

on_exit() {
  local rc=$?
  set +e
  local failed=""
  if [ -n "$current" ]; then
    failed="$current"
    record_stage "FAILED (exit $rc)"
    current=""
  fi
  if [ -d "$root" ]; then
    # Mounts left behind fail the run even when every stage passed.
    if ! unmount_root && [ "$rc" = 0 ]; then rc=1; fi
  fi
  summary
  echo
  if [ -n "$failed" ]; then
    echo "check-fresh-machine: FAILED in stage '$failed' (exit $rc)"
  elif [ "$rc" != 0 ]; then
    echo "check-fresh-machine: FAILED (exit $rc)"
  elif [ "$only_setup" = 1 ]; then
    echo "check-fresh-machine: setup passed (--only-setup: the README commands were not run)"
  else
    echo "check-fresh-machine: both README commands passed on a fresh Debian 12 root"
  fi
  [ -d "$root" ] && echo "root: $root (remove with: rm -rf --one-file-system $root)"
  echo "log: $log"
  # Let tee write the last lines before the script is gone.
  exec >&- 2>&-
  wait "$tee_pid" 2>/dev/null
  exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Runs one shell line in the chroot with the environment of a plain root
# login on a fresh machine, not this machine's (PATH, ccache dirs, ...).
in_root() {
  local env_args=(HOME=/root USER=root LOGNAME=root SHELL=/bin/bash
    TERM="${TERM:-dumb}"
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
  local v
  # A proxy this machine needs, a fresh machine on this network needs too.
  for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
    if [ -n "${!v:-}" ]; then env_args+=("$v=${!v}"); fi
  done
  chroot "$root" /usr/bin/env -i "${env_args[@]}" /bin/bash -lc "$1"
}

# --- Apt sources of this machine --------------------------------------------

# Prints "URI SUITE COMPONENTS" (components comma-separated) for every
# enabled binary ("deb") source, one-line and deb822 formats alike.
apt_source_entries() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk '
      /^[[:space:]]*deb[[:space:]]/ {
        sub(/#.*/, ""); i = 2
        if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
        uri = $i; s = $(i + 1); comps = ""
        for (j = i + 2; j <= NF; j++) comps = comps (comps == "" ? "" : ",") $j
        print uri, s, comps
      }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk '
      function flush(   nu, ns, u, s, uris, suites) {
        if (f["types"] ~ /(^|[[:space:]])deb([[:space:]]|$)/ &&
            tolower(f["enabled"]) != "no") {
          nu = split(f["uris"], uris); ns = split(f["suites"], suites)
          comps = f["components"]; gsub(/[[:space:]]+/, ",", comps)
          for (u = 1; u <= nu; u++)
            for (s = 1; s <= ns; s++) print uris[u], suites[s], comps
        }
        delete f; last = ""
      }
      /^[[:space:]]*#/ { next }
      /^[[:space:]]*$/ { flush(); next }
      /^[[:space:]]/ { if (last != "") f[last] = f[last] " " $0; next }
      {
        key = tolower(substr($0, 1, index($0, ":") - 1))
        val = substr($0, index($0, ":") + 1)
        gsub(/^[[:space:]]+|[[:space:]]+$/, "", val)
        f[key] = val; last = key
      }
      END { flush() }' "$f"
  done
}

# The Signed-By keyrings the sources name (files only, not inline keys).
apt_source_keyrings() {
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    grep -oE 'signed-by=[^] ]+' | cut -d= -f2- || true
  cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk 'tolower($1) == "signed-by:" && $2 ~ /^\// { print $2 }' || true
}

find_mirror() {
  [ -n "$mirror" ] && return 0
  local uri s comps
  while read -r uri s comps; do
    if [ "$s" = "$suite" ]; then
      case "$uri" in
        http://*|https://*|ftp://*|file:/*)
          mirror="$uri"; mirror_components="$comps"; return 0 ;;
      esac
    fi
  done < <(apt_source_entries)
  die "no '$suite' entry in this machine's apt sources; give --mirror URL"
}

# --- The README's two commands ----------------------------------------------

# The first ```sh block after "## The two commands", comments stripped.
# Read from the clone, so the commands are the ones of the commit under test.
readme_commands() {
  awk '
    /^## / { in_section = ($0 == "## The two commands") }
    in_section && /^```sh[[:space:]]*$/ && !seen { in_block = 1; seen = 1; next }
    in_block && /^```/ { in_block = 0; exit }
    in_block {
      sub(/[[:space:]]+#.*$/, ""); gsub(/^[[:space:]]+|[[:space:]]+$/, "")
      if ($0 != "" && $0 !~ /^#/) print
    }' "$1"
}

# --- Preflight ---------------------------------------------------------------

mirror_components=main
find_mirror
echo "check-fresh-machine: repository $repo"
echo "check-fresh-machine: root $root, mirror $mirror ($suite, ${mirror_components:-main})"
echo "check-fresh-machine: log $log"
head_commit="$(git -C "$repo" rev-parse HEAD)"
echo "check-fresh-machine: testing commit $(git -C "$repo" log -1 --format='%h %s' HEAD)"
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
  echo "check-fresh-machine: note: uncommitted changes in $repo are not tested (the clone is of HEAD)"
fi

if ! command -v debootstrap >/dev/null; then
  echo "check-fresh-machine: installing debootstrap"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq debootstrap
fi

# A killed earlier run may have left mounts in the root; never rm through them.
if [ -d "$root" ]; then
  unmount_root || die "cannot unmount everything under $root; remove it by hand"
fi

# --- Stage: debootstrap -----------------------------------------------------

begin_stage debootstrap
if [ "$keep_root" = 1 ] && [ -f "$root/$marker" ]; then
  echo "reusing $root (--keep-root)"
  end_stage "ok (reused)"
else
  rm -rf --one-file-system "$root"
  mkdir -p "$root"
  # Default variant: what a standard Debian installation starts from
  # (required + important). git is how a user gets this repository.
  debootstrap --arch="$(dpkg --print-architecture)" \
    --components="${mirror_components:-main}" --include=git \
    "$suite" "$root" "$mirror"
  touch "$root/$marker"
  end_stage
fi

# --- Stage: apt sources (and the mounts the chroot needs) -------------------

begin_stage "apt sources"
# The machine's own sources replace debootstrap's sources.list: the same
# archive (and security/updates suites) this machine installs from.
rm -f "$root/etc/apt/sources.list"
rm -f "$root"/etc/apt/sources.list.d/*.list "$root"/etc/apt/sources.list.d/*.sources
mkdir -p "$root/etc/apt/sources.list.d"
[ -f /etc/apt/sources.list ] && cp -v /etc/apt/sources.list "$root/etc/apt/"
for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] && cp -v "$f" "$root/etc/apt/sources.list.d/"
done
# Keyrings the sources point at, where the base system lacks them.
while read -r k; do
  if [ -z "$k" ] || [ ! -f "$k" ]; then continue; fi
  if [ ! -e "$root$k" ]; then
    mkdir -p "$(dirname "$root$k")"
    cp -v "$k" "$root$k"
  fi
done < <(apt_source_keyrings)
# Only the apt settings that reaching and validating the archive depends on
# (proxies, TLS, snapshot mirrors' Valid-Until); not caches or hooks.
for f in /etc/apt/apt.conf /etc/apt/apt.conf.d/*; do
  [ -f "$f" ] || continue
  if grep -qiE 'Acquire::(https?|ftp|socks)::|Check-Valid-Until|Check-Date' "$f"; then
    mkdir -p "$root$(dirname "$f")"
    cp -v "$f" "$root$f"
  fi
done
# Name resolution and site trust anchors (e.g. an egress proxy's CA) are the
# network's, not the machine's: a fresh machine on this network has them.
# ca-certificates picks the CAs up when it is installed (by install-deps.sh).
rm -f "$root/etc/resolv.conf"
cp -vL /etc/resolv.conf "$root/etc/resolv.conf"
if [ -d /usr/local/share/ca-certificates ]; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp -rv /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
fi
# Packages must not start services in a chroot (a real machine would).
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
mount_root
if [ -x "$root/usr/sbin/update-ca-certificates" ]; then
  in_root update-ca-certificates
fi
end_stage

# --- Stage: clone -----------------------------------------------------------

begin_stage clone
rm -rf --one-file-system "$root$clone_in_root"
# --no-local: a real copy of the objects, no hard links into this checkout.
git clone --no-local --no-checkout "$repo" "$root$clone_in_root"
if ! git -C "$root$clone_in_root" cat-file -e "$head_commit^{commit}" 2>/dev/null; then
  git -C "$root$clone_in_root" fetch -q origin "$head_commit"
fi
git -C "$root$clone_in_root" checkout -q -B main "$head_commit"
[ "$(git -C "$root$clone_in_root" rev-parse HEAD)" = "$head_commit" ] ||
  die "clone is not at $head_commit"
git -C "$root$clone_in_root" log -1 --format='cloned %H (%s) as branch main' HEAD

mapfile -t commands < <(readme_commands "$root$clone_in_root/README.md")
if [ "${#commands[@]}" -ne 2 ]; then
  printf 'found: %s\n' "${commands[@]:-<nothing>}"
  die "README.md: expected exactly two commands in the first sh block of '## The two commands', found ${#commands[@]}"
fi
for c in "${commands[@]}"; do
  read -r first _ <<<"$c"
  [ -x "$root$clone_in_root/$first" ] ||
    die "README.md command '$c': $first is not an executable file in the clone"
done
echo "README main job: ${commands[0]}"
echo "README tests:    ${commands[1]}"
end_stage

# --- Stages: the README's commands, in the chroot ---------------------------

if [ "$only_setup" = 1 ]; then
  begin_stage "scripts/install-deps.sh"
  in_root "cd $clone_in_root && scripts/install-deps.sh"
  end_stage
  exit 0
fi

begin_stage "main job"
echo "\$ cd $clone_in_root && ${commands[0]}"
in_root "cd $clone_in_root && ${commands[0]}"
end_stage

begin_stage "tests"
echo "\$ cd $clone_in_root && ${commands[1]}"
in_root "cd $clone_in_root && ${commands[1]}"
end_stage
