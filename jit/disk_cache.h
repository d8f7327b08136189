// Compiled kernels kept on disk between runs, so that a program's second
// run loads its kernels instead of compiling them again. One file per
// kernel, under a directory private to the user, written under a temporary
// name and renamed into place (a reader never sees half a file), and
// checked before its code is used: owner and permissions, this npython
// build's identity (the executable's GNU build ID), the full kernel key, and
// a checksum of the whole file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npy::jit {

// What is kept of one kernel: its machine code, which runs from any
// address, and the numbers its backend needs to call it.
struct StoredCode {
  std::vector<std::uint8_t> code;
  std::vector<std::int64_t> facts;
};

// Where the cache lives: `setting` is NPY_KERNEL_CACHE's value as the
// launcher's controls checked it (an absolute directory; empty: the default,
// $XDG_CACHE_HOME/npython or ~/.cache/npython; "off": no cache).
// Creates the directory if needed; the cache stays off when it cannot be
// made private to this user or the executable has no build ID. The
// directory is opened here, once, and every file reached relative to it.
// Called once, before the first kernel.
void open_disk_cache(const std::string& setting);

// Whether kernels are kept: the directory could be opened as private.
bool disk_cache_is_on();

// The kernel stored under `key`, or nothing when there is none or its file
// fails a check (counted as jit.disk_cache_rejected).
std::optional<StoredCode> load_stored_code(const std::string& key);

// Counts a kernel whose file passed load_stored_code's checks but whose
// facts or code its user cannot take (jit.disk_cache_rejected).
void note_stored_code_rejected();

// Stores `code` under `key`, replacing what was there: queued for
// write_stored_code, since creating a file can take longer than compiling
// the kernel did. Failures (a full disk, a read-only directory) only mean
// the next run compiles again.
void store_code(const std::string& key, StoredCode code);

// What the cache keeps, decided from a listing of its directory: a file a
// crashed writer left half-written goes after kPartialSeconds; a kernel not
// used for kUnusedSeconds (loading one refreshes its time once a day),
// which is what an old npython build's kernels become, goes; and while the
// kernels take more than `max_bytes` on disk, the least recently used go
// until they take three quarters of it. Other files are not the cache's.
struct CacheEntry {
  std::string name;
  // Whole blocks (st_blocks): a kernel file of a few hundred bytes takes a
  // block of 4 KiB, so its size says little of what a cache of many takes.
  std::int64_t disk_bytes = 0;
  std::int64_t mtime = 0;  // seconds
};
inline constexpr std::int64_t kPartialSeconds = 600;
inline constexpr std::int64_t kUnusedSeconds = 30 * 24 * 3600;
inline constexpr std::int64_t kMaxCacheBytes = std::int64_t{64} << 20;
std::vector<std::string> entries_to_remove(std::vector<CacheEntry> entries, std::int64_t now,
                                           std::int64_t max_bytes);

// Writes the queued kernels as they come, until close_disk_cache: for the
// launcher's otherwise idle main thread. Before its first write it lists
// the directory and removes what entries_to_remove says, and after each
// write, while the kernels take more than kMaxCacheBytes, it removes the
// least recently used again. What is still queued when the process ends by
// another way (os._exit) is not written.
void write_stored_code();
// Lets write_stored_code return once the queue is empty, or at once while
// it is still listing or removing files: then nothing more is written.
void close_disk_cache();

}  // namespace npy::jit
