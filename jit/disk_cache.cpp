#include "jit/disk_cache.h"

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "common/stats.h"

namespace npy::jit {
namespace {

// A file: the magic, then the build ID, the key, the facts and the code,
// each with its length, then a checksum of everything before it.
constexpr char kMagic[8] = {'N', 'P', 'Y', 'K', 'E', 'R', 'N', '1'};
// Far above any kernel; a bigger file is not one of ours.
constexpr std::size_t kMaxFileBytes = 16 << 20;
constexpr char kPartialPrefix[] = ".writing-";
constexpr char kKernelSuffix[] = ".kernel";
// How often a used kernel's time is refreshed.
constexpr std::int64_t kRefreshSeconds = 24 * 3600;

struct DiskCache {
  // The directory, opened once: every file is reached relative to it, so
  // that renaming it or a parent later (a symbolic link put in its place)
  // changes nothing. -1: off.
  int dir_fd = -1;
  std::string build_id;     // this executable's GNU build ID, raw bytes
  unsigned next_temporary = 0;
  // Kernels to write, from the interpreter thread to the writer.
  std::mutex lock;
  std::condition_variable changed;
  std::deque<std::pair<std::string, StoredCode>> queue;
  // The program has ended, or the writer gave up: nothing more is queued,
  // and the writer stops listing and removing files (set under `lock`,
  // read without it between files).
  std::atomic<bool> closing{false};
};

DiskCache& disk_cache() {
  // Never destroyed: the writer may still wait on it while exit() runs.
  static DiskCache* cache = new DiskCache;
  return *cache;
}

Counter& rejected_counter() {
  static Counter& c = counter("jit.disk_cache_rejected");
  return c;
}

// FNV-1a, 64 bits: catches a truncated or damaged file, not an attacker (who
// could write to the user's private directory could do anything anyway).
std::uint64_t checksum(const std::uint8_t* data, std::size_t size, std::uint64_t h = 14695981039346656037ull) {
  for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

int find_build_id(dl_phdr_info* info, std::size_t, void* out) {
  // The first object listed is the executable itself.
  auto* id = static_cast<std::string*>(out);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char* at = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
    const char* end = at + ph.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const char* name = at + sizeof note;
      const char* desc = name + ((note.n_namesz + 3) & ~3u);
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0 &&
          desc + note.n_descsz <= end) {
        id->assign(desc, note.n_descsz);
        return 1;
      }
      at = desc + ((note.n_descsz + 3) & ~3u);
    }
  }
  return 1;
}

std::string default_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return std::string(xdg) + "/npython";
  const char* home = std::getenv("HOME");
  if (home && *home == '/') return std::string(home) + "/.cache/npython";
  return {};
}

// Makes `path` and any missing parents, new ones private to the user.
bool make_dirs(const std::string& path) {
  for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    const std::string part = path.substr(0, slash);
    if (mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return false;
    if (slash == std::string::npos) return true;
  }
}

// A directory of ours that nobody else may write to or read from.
bool is_private_dir(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && (st.st_mode & 077) == 0;
}

// The kernel's file name in the directory.
std::string file_for(const std::string& key) {
  const DiskCache& cache = disk_cache();
  std::uint64_t h = checksum(reinterpret_cast<const std::uint8_t*>(cache.build_id.data()), cache.build_id.size());
  h = checksum(reinterpret_cast<const std::uint8_t*>(key.data()), key.size(), h);
  static const char* digits = "0123456789abcdef";
  std::string name(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) name[i] = digits[h & 15];
  return name + kKernelSuffix;
}

void put_bytes(std::vector<std::uint8_t>& out, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  out.insert(out.end(), bytes, bytes + size);
}

template <typename T>
void put(std::vector<std::uint8_t>& out, T value) {
  put_bytes(out, &value, sizeof value);
}

void put_string(std::vector<std::uint8_t>& out, const std::string& s) {
  put<std::uint64_t>(out, s.size());
  put_bytes(out, s.data(), s.size());
}

// Reads a file's fields in order; any read past the end fails the file.
class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : at_(data), end_(data + size) {}
  template <typename T>
  bool get(T& value) {
    if (static_cast<std::size_t>(end_ - at_) < sizeof value) return false;
    std::memcpy(&value, at_, sizeof value);
    at_ += sizeof value;
    return true;
  }
  bool get_bytes(std::size_t size, const std::uint8_t*& data) {
    if (static_cast<std::size_t>(end_ - at_) < size) return false;
    data = at_;
    at_ += size;
    return true;
  }
  bool get_string(std::string& s) {
    std::uint64_t size = 0;
    const std::uint8_t* data = nullptr;
    if (!get(size) || !get_bytes(size, data)) return false;
    s.assign(reinterpret_cast<const char*>(data), size);
    return true;
  }
  bool at_end() const { return at_ == end_; }

 private:
  const std::uint8_t* at_;
  const std::uint8_t* end_;
};

// The file's bytes, when it is a regular file of ours that nobody else may
// write and of a plausible size.
std::optional<std::vector<std::uint8_t>> read_private_file(const std::string& name) {
  // Without waiting: a named pipe put there would block open() (it fails
  // the checks below; O_NONBLOCK changes nothing for a regular file).
  const int fd = openat(disk_cache().dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno != ENOENT) rejected_counter().add();  // there, but not openable as ours (a link)
    return std::nullopt;
  }
  std::optional<std::vector<std::uint8_t>> bytes;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && (st.st_mode & 022) == 0 &&
      static_cast<std::size_t>(st.st_size) <= kMaxFileBytes) {
    // A kernel in use keeps a recent time, so that tidying keeps it.
    if (st.st_mtime < std::time(nullptr) - kRefreshSeconds) futimens(fd, nullptr);
    std::vector<std::uint8_t> data(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < data.size()) {
      const ssize_t n = read(fd, data.data() + got, data.size() - got);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    if (got == data.size()) bytes = std::move(data);
  }
  close(fd);
  if (!bytes) rejected_counter().add();
  return bytes;
}

// Bytes a file takes on disk: whole blocks, which for a kernel of a few
// hundred bytes are several times its size.
std::int64_t disk_bytes(const struct stat& st) { return static_cast<std::int64_t>(st.st_blocks) * 512; }

// Writes the file under a temporary name, then renames it into place; what
// the directory holds then, or nothing when the write failed.
std::optional<CacheEntry> write_file(const std::string& key, const StoredCode& code) {
  DiskCache& cache = disk_cache();
  std::vector<std::uint8_t> file;
  put_bytes(file, kMagic, sizeof kMagic);
  put_string(file, cache.build_id);
  put_string(file, key);
  put<std::uint64_t>(file, code.facts.size());
  for (std::int64_t fact : code.facts) put(file, fact);
  put<std::uint64_t>(file, code.code.size());
  put_bytes(file, code.code.data(), code.code.size());
  put(file, checksum(file.data(), file.size()));

  const std::string temporary =
      kPartialPrefix + std::to_string(getpid()) + "-" + std::to_string(cache.next_temporary++);
  const int fd = openat(cache.dir_fd, temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return std::nullopt;
  std::size_t put_so_far = 0;
  while (put_so_far < file.size()) {
    const ssize_t n = write(fd, file.data() + put_so_far, file.size() - put_so_far);
    if (n <= 0) break;
    put_so_far += static_cast<std::size_t>(n);
  }
  struct stat st;
  const bool stated = fstat(fd, &st) == 0;
  const bool written = close(fd) == 0 && stated && put_so_far == file.size();
  const std::string name = file_for(key);
  if (!written || renameat(cache.dir_fd, temporary.c_str(), cache.dir_fd, name.c_str()) != 0) {
    unlinkat(cache.dir_fd, temporary.c_str(), 0);
    return std::nullopt;
  }
  return CacheEntry{name, disk_bytes(st), static_cast<std::int64_t>(st.st_mtime)};
}

bool has_suffix(const std::string& name, const char* suffix) {
  const std::size_t n = std::strlen(suffix);
  return name.size() > n && name.compare(name.size() - n, n, suffix) == 0;
}

bool is_partial(const std::string& name) { return name.compare(0, std::strlen(kPartialPrefix), kPartialPrefix) == 0; }

bool is_kernel(const std::string& name) { return !is_partial(name) && has_suffix(name, kKernelSuffix); }

// The directory's regular files; nothing when the program ends first.
std::optional<std::vector<CacheEntry>> list_dir() {
  std::vector<CacheEntry> entries;
  // A descriptor of its own: reading a directory moves its descriptor's
  // offset.
  const int fd = openat(disk_cache().dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return entries;
  const std::unique_ptr<DIR, int (*)(DIR*)> dir(fdopendir(fd), closedir);
  if (!dir) {
    close(fd);
    return entries;
  }
  struct stat st;
  while (const dirent* entry = readdir(dir.get())) {
    if (disk_cache().closing) return std::nullopt;
    if (fstatat(fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode)) {
      entries.push_back({entry->d_name, disk_bytes(st), static_cast<std::int64_t>(st.st_mtime)});
    }
  }
  return entries;
}

// The kernels the directory holds, as far as this process knows, and the
// bytes they take on disk.
class KnownKernels {
 public:
  void add(const CacheEntry& entry) {
    const auto [at, added] = by_name_.emplace(entry.name, entry);
    if (!added) {  // written again under its name: the file it replaced is gone
      bytes_ -= at->second.disk_bytes;
      at->second = entry;
    }
    bytes_ += entry.disk_bytes;
  }
  void remove(const std::string& name) {
    const auto at = by_name_.find(name);
    if (at == by_name_.end()) return;
    bytes_ -= at->second.disk_bytes;
    by_name_.erase(at);
  }
  std::int64_t bytes() const { return bytes_; }
  std::vector<CacheEntry> entries() const {
    std::vector<CacheEntry> all;
    all.reserve(by_name_.size());
    for (const auto& named : by_name_) all.push_back(named.second);
    return all;
  }

 private:
  std::unordered_map<std::string, CacheEntry> by_name_;
  std::int64_t bytes_ = 0;
};

// Removes `names` from the directory and from `kernels`; false when the
// program ends first.
bool remove_files(const std::vector<std::string>& names, KnownKernels& kernels) {
  const int dir_fd = disk_cache().dir_fd;
  for (const std::string& name : names) {
    if (disk_cache().closing) return false;
    unlinkat(dir_fd, name.c_str(), 0);
    kernels.remove(name);
  }
  return true;
}

// The writer gives up: what is queued, and whatever comes, is not written.
void stop_writing(std::unique_lock<std::mutex>& hold) {
  DiskCache& cache = disk_cache();
  if (!hold.owns_lock()) hold.lock();
  cache.closing = true;
  cache.queue.clear();
}

}  // namespace

std::vector<std::string> entries_to_remove(std::vector<CacheEntry> entries, std::int64_t now,
                                           std::int64_t max_bytes) {
  std::vector<std::string> removed;
  std::vector<CacheEntry> kept;
  std::int64_t kept_bytes = 0;
  for (CacheEntry& e : entries) {
    if (is_partial(e.name) && e.mtime < now - kPartialSeconds) {
      removed.push_back(std::move(e.name));
    } else if (is_kernel(e.name)) {
      if (e.mtime < now - kUnusedSeconds) {
        removed.push_back(std::move(e.name));
      } else {
        kept_bytes += e.disk_bytes;
        kept.push_back(std::move(e));
      }
    }
  }
  if (kept_bytes <= max_bytes) return removed;
  std::sort(kept.begin(), kept.end(), [](const CacheEntry& a, const CacheEntry& b) {
    return a.mtime != b.mtime ? a.mtime < b.mtime : a.name < b.name;
  });
  for (CacheEntry& e : kept) {
    if (kept_bytes <= max_bytes / 4 * 3) break;
    kept_bytes -= e.disk_bytes;
    removed.push_back(std::move(e.name));
  }
  return removed;
}

void open_disk_cache(const std::string& setting) {
  DiskCache& cache = disk_cache();
  rejected_counter();  // listed in the stats from the start, as the kernel counters are
  if (setting == "off") return;
  const std::string base = setting.empty() ? default_dir() : setting;
  if (base.empty()) return;
  std::string id;
  dl_iterate_phdr(find_build_id, &id);
  if (id.empty()) return;
  const std::string dir = base + "/kernels";
  if (!make_dirs(dir)) return;
  // Not through a symbolic link: the directory must be the private one.
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  if (!is_private_dir(fd)) {
    close(fd);
    return;
  }
  cache.build_id = id;
  cache.dir_fd = fd;
  // A forked child has no writer thread, and may have been forked while the
  // writer held the queue's lock: it keeps no kernels.
  pthread_atfork(nullptr, nullptr, [] {
    DiskCache& child = disk_cache();
    close(child.dir_fd);
    child.dir_fd = -1;
  });
}

bool disk_cache_is_on() { return disk_cache().dir_fd >= 0; }

std::optional<StoredCode> load_stored_code(const std::string& key) {
  const DiskCache& cache = disk_cache();
  if (cache.dir_fd < 0) return std::nullopt;
  const std::optional<std::vector<std::uint8_t>> file = read_private_file(file_for(key));
  if (!file) return std::nullopt;
  StoredCode stored;
  const std::size_t body = file->size() >= sizeof(std::uint64_t) ? file->size() - sizeof(std::uint64_t) : 0;
  Reader reader(file->data(), file->size());
  const std::uint8_t* magic = nullptr;
  std::string build_id, stored_key;
  std::uint64_t facts = 0, code_size = 0, sum = 0;
  const std::uint8_t* code = nullptr;
  bool ok = body > 0 && reader.get_bytes(sizeof kMagic, magic) && std::memcmp(magic, kMagic, sizeof kMagic) == 0 &&
            reader.get_string(build_id) && build_id == cache.build_id && reader.get_string(stored_key) &&
            stored_key == key && reader.get(facts) && facts <= 64;
  for (std::uint64_t i = 0; ok && i < facts; ++i) {
    std::int64_t fact = 0;
    ok = reader.get(fact);
    stored.facts.push_back(fact);
  }
  ok = ok && reader.get(code_size) && code_size > 0 && reader.get_bytes(code_size, code) && reader.get(sum) &&
       reader.at_end() && sum == checksum(file->data(), body);
  if (!ok) {
    rejected_counter().add();
    return std::nullopt;
  }
  stored.code.assign(code, code + code_size);
  return stored;
}

void note_stored_code_rejected() { rejected_counter().add(); }

void store_code(const std::string& key, StoredCode code) {
  DiskCache& cache = disk_cache();
  if (cache.dir_fd < 0 || code.code.empty()) return;
  {
    const std::lock_guard<std::mutex> hold(cache.lock);
    if (cache.closing) return;
    cache.queue.emplace_back(key, std::move(code));
  }
  cache.changed.notify_one();
}

void write_stored_code() {
  DiskCache& cache = disk_cache();
  // The lowest priority: the writes wait for a core the kernels' threads
  // leave idle rather than slowing a kernel down.
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
  // Known from a listing before the first write and kept up to date with
  // every write and removal, so that the bound holds as kernels are written.
  KnownKernels kernels;
  bool listed = false;
  std::unique_lock<std::mutex> hold(cache.lock);
  for (;;) {
    cache.changed.wait(hold, [&] { return cache.closing || !cache.queue.empty(); });
    if (cache.queue.empty()) return;
    hold.unlock();
    if (!listed) {
      // The program may end before the listing or the removals are done:
      // its exit does not wait for them, and none of its kernels are
      // written, since the room they would take is not known.
      std::optional<std::vector<CacheEntry>> entries = list_dir();
      if (!entries) {
        stop_writing(hold);
        return;
      }
      for (const CacheEntry& e : *entries) {
        if (is_kernel(e.name)) kernels.add(e);
      }
      if (!remove_files(entries_to_remove(std::move(*entries), std::time(nullptr), kMaxCacheBytes), kernels)) {
        stop_writing(hold);
        return;
      }
      listed = true;
    }
    hold.lock();
    const std::pair<std::string, StoredCode> next = std::move(cache.queue.front());
    cache.queue.pop_front();
    hold.unlock();
    if (const std::optional<CacheEntry> written = write_file(next.first, next.second)) kernels.add(*written);
    if (kernels.bytes() > kMaxCacheBytes &&
        !remove_files(entries_to_remove(kernels.entries(), std::time(nullptr), kMaxCacheBytes), kernels)) {
      stop_writing(hold);
      return;
    }
    hold.lock();
  }
}

void close_disk_cache() {
  DiskCache& cache = disk_cache();
  {
    const std::lock_guard<std::mutex> hold(cache.lock);
    cache.closing = true;
  }
  cache.changed.notify_one();
}

}  // namespace npy::jit
