//! Disks, volumes, flash chips and the kernel's own files: tools that format, wipe, zap a
//! partition table, destroy a volume or a pool, or write into `/proc` and `/sys`. None of them
//! is an ordinary developer command, and what they destroy is the machine's, never the
//! workspace's: each is judged by its verb and flags alone, whatever device it names.

use crate::guards::argv::{args, given, has_flag, operands, plain_words, program};
use crate::guards::show;
use crate::shell::{Arg, Command, RedirectKind};

/// Why `c` destroys a device, a volume or a file system, if it does.
pub(super) fn wipes(c: &Command) -> Option<String> {
    let a = args(c);
    let plain = plain_words(a);
    let first = plain.first().copied().unwrap_or("");
    let hit = match program(c) {
        // Formatters under names that do not begin with `mkfs` (mke2fs(8), mkdosfs(8)…).
        "mkswap" | "mke2fs" | "mke3fs" | "mke4fs" | "mkdosfs" | "mkntfs" | "mkexfatfs"
        | "mkudffs" | "mkreiserfs" | "mkfatfs" => Some("formats a device"),
        // `-w` writes test patterns over every block (`-n` restores what it read).
        "badblocks" if has_flag(a, &['w'], &[]) => Some("overwrites every block of a device"),
        "sgdisk" | "gdisk" | "cgdisk" if !sgdisk_reads_only(a) => {
            Some("rewrites or zaps a partition table")
        }
        "blkdiscard" | "flash_erase" | "flash_eraseall" | "flashcp" | "nandwrite" => {
            Some("discards or erases every block of a device")
        }
        "pvremove" | "vgremove" | "lvremove" | "pvcreate" | "vgcreate" | "lvreduce" => {
            Some("destroys or relabels an LVM volume")
        }
        "zpool" if matches!(first, "destroy" | "labelclear" | "create") => {
            Some("destroys or overwrites a ZFS pool")
        }
        "zfs" if matches!(first, "destroy" | "rollback") => {
            Some("destroys a ZFS data set or its later snapshots")
        }
        "cryptsetup" if cryptsetup_destroys(&plain) => {
            Some("erases or reformats an encrypted volume's keys")
        }
        "nvme" if matches!(first, "format" | "sanitize" | "delete-ns" | "write-zeroes") => {
            Some("formats or sanitizes an NVMe namespace")
        }
        "dmsetup" if matches!(first, "remove_all" | "remove" | "wipe_table" | "clear") => {
            Some("removes device-mapper devices under running file systems")
        }
        // `-w` opens the file system for writing; its requests (`rm`, `kill_file`) then run.
        "debugfs" if has_flag(a, &['w'], &["writable"]) => {
            Some("edits a file system's blocks directly")
        }
        "mdadm" if mdadm_destroys(a) => Some("zeroes or recreates a RAID member"),
        "flashrom" if has_flag(a, &['w', 'E'], &["write", "erase"]) => {
            Some("erases or rewrites a firmware chip")
        }
        // dc3dd's `wipe=DEV`/`hwipe=DEV` fill the device with a pattern, `of=` overwrites.
        "dc3dd" | "dcfldd" if dc3dd_wipes(a) => Some("wipes or overwrites a device"),
        _ => None,
    };
    hit.map(|why| format!("`{}` {why}", show(c)))
        .or_else(|| kernel_write(c))
}

/// gdisk's family only reads with `-p`/`--print`, `-i`/`--info`, `-v`/`--verify`,
/// `-b`/`--backup` (to a file) and `-O`/`--print-mbr`; any other option rewrites the table,
/// and gdisk/cgdisk are interactive editors whose `w` writes it.
fn sgdisk_reads_only(a: &[Arg]) -> bool {
    let reads = [
        "--print",
        "--info",
        "--verify",
        "--backup",
        "--print-mbr",
        "--version",
    ];
    let options: Vec<&Arg> = a.iter().filter(|x| x.text.starts_with('-')).collect();
    !options.is_empty()
        && options.iter().all(|x| {
            let t = x.text.as_str();
            let long = t.split('=').next().unwrap_or(t);
            reads.contains(&long)
                || (!t.starts_with("--")
                    && t.len() > 1
                    && t[1..]
                        .chars()
                        .all(|ch| matches!(ch, 'p' | 'i' | 'v' | 'b' | 'O' | 'V')))
        })
}

/// `cryptsetup erase` (alias of `luksErase`) and `luksKillSlot` destroy the keys, so the data
/// is gone; `luksFormat` and `reencrypt --encrypt` write a new header over the device.
fn cryptsetup_destroys(plain: &[&str]) -> bool {
    plain.iter().any(|w| {
        matches!(
            *w,
            "erase" | "luksErase" | "luksFormat" | "luksKillSlot" | "reencrypt"
        )
    })
}

/// `mdadm --zero-superblock`, `--create`/`-C`, `--build`/`-B`: the member's RAID metadata is
/// erased or written anew.
fn mdadm_destroys(a: &[Arg]) -> bool {
    given(a, &["--zero-superblock", "--create", "--build"])
        || a.iter().any(|x| matches!(x.text.as_str(), "-C" | "-B"))
}

fn dc3dd_wipes(a: &[Arg]) -> bool {
    a.iter().any(|x| {
        let t = x.text.as_str();
        t.starts_with("wipe=")
            || t.starts_with("hwipe=")
            || t.strip_prefix("of=")
                .or_else(|| t.strip_prefix("hof="))
                .is_some_and(|d| d.starts_with("/dev/") && !d.starts_with("/dev/null"))
    })
}

/// `echo b > /proc/sysrq-trigger`, `tee /sys/…`: the kernel acts on what is written to its
/// own files (reboots, powers off, changes a tunable), as a root command would. A process's
/// descriptors under `/proc/self/fd/` are its ordinary output.
pub(super) fn kernel_write(c: &Command) -> Option<String> {
    let redirected = (c.redirects.iter())
        .filter(|r| matches!(r.kind, RedirectKind::Write | RedirectKind::Append))
        .map(|r| &r.target);
    let teed = match program(c) {
        "tee" => operands(args(c), &[]),
        _ => Vec::new(),
    };
    redirected
        .chain(teed)
        .find(|t| kernel_file(&t.text))
        .map(|t| format!("`{}` writes into the kernel's {}", show(c), t.text))
}

fn kernel_file(path: &str) -> bool {
    let Some(rest) = path
        .strip_prefix("/proc/")
        .or_else(|| path.strip_prefix("/sys/"))
    else {
        return false;
    };
    // `/proc/self/fd/1`, `/proc/123/fd/2`: descriptors, not the kernel's settings.
    let mut parts = rest.split('/');
    let owner = parts.next().unwrap_or("");
    let process = owner == "self" || owner.chars().all(|ch| ch.is_ascii_digit());
    !(path.starts_with("/proc/") && process && parts.next() == Some("fd"))
}
