#include "temp_tree.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace test {
namespace {

// nftw's callbacks take no context argument; these are only touched by one
// thread, during one nftw call at a time.
std::size_t unreadable_seen = 0;
uid_t chown_uid = 0;
gid_t chown_gid = 0;

[[noreturn]] void die(const std::string& what) {
    std::fprintf(stderr, "temp_tree: %s: %s\n", what.c_str(), std::strerror(errno));
    // exit, not abort: the atexit handler still removes live trees.
    std::exit(EXIT_FAILURE);
}

int make_searchable(const char* path, const struct stat*, int type, struct FTW*) {
    if (type == FTW_D || type == FTW_DNR) {
        ::chmod(path, 0755);
        if (type == FTW_DNR) {
            ++unreadable_seen;
        }
    }
    return 0;
}

int remove_entry(const char* path, const struct stat*, int type, struct FTW*) {
    int ret = (type == FTW_DP || type == FTW_D || type == FTW_DNR) ? ::rmdir(path)
                                                                   : ::unlink(path);
    if (ret != 0) {
        std::fprintf(stderr, "temp_tree: cannot remove %s: %s\n", path, std::strerror(errno));
    }
    return 0;  // go on: remove as much as possible
}

int change_owner(const char* path, const struct stat*, int, struct FTW*) {
    if (::lchown(path, chown_uid, chown_gid) != 0) {
        std::fprintf(stderr, "temp_tree: cannot chown %s: %s\n", path, std::strerror(errno));
    }
    return 0;
}

// Empties and removes the directory `name` in the working directory, going
// down with chdir so that no path is longer than one component and no
// descriptor is held per level: for chains deeper than PATH_MAX (which nftw
// cannot remove: it hands its callback whole paths), and for tests that left
// the process with few descriptors to spare.  An explicit stack of levels,
// not recursion: a chain 10,000 deep would need 10,000 frames, more than the
// stack holds under AddressSanitizer.
void remove_here(const char* name) {
    struct Level {
        std::string name;                  // as seen from the level above
        std::vector<std::string> subdirs;  // still to remove
    };
    std::vector<Level> levels;
    auto remove_directory = [](const std::string& directory) {
        if (::rmdir(directory.c_str()) != 0) {
            std::fprintf(stderr, "temp_tree: cannot remove %s: %s\n", directory.c_str(),
                         std::strerror(errno));
        }
    };
    // Goes down into `directory`, removes its files, and pushes its level.
    auto enter = [&levels](const std::string& directory) {
        ::chmod(directory.c_str(), 0755);
        if (::chdir(directory.c_str()) != 0) {
            return false;
        }
        Level level{directory, {}};
        std::vector<std::string> files;
        if (DIR* dir = ::opendir(".")) {
            while (const dirent* entry = ::readdir(dir)) {
                if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) {
                    continue;
                }
                struct stat st;
                bool is_dir = ::lstat(entry->d_name, &st) == 0 && S_ISDIR(st.st_mode);
                (is_dir ? level.subdirs : files).emplace_back(entry->d_name);
            }
            ::closedir(dir);
        }
        for (const std::string& file : files) {
            ::unlink(file.c_str());
        }
        levels.push_back(std::move(level));
        return true;
    };
    if (!enter(name)) {
        remove_directory(name);
        return;
    }
    while (!levels.empty()) {
        Level& level = levels.back();
        if (!level.subdirs.empty()) {
            std::string child = std::move(level.subdirs.back());
            level.subdirs.pop_back();
            if (!enter(child)) {
                remove_directory(child);
            }
            continue;
        }
        std::string done = std::move(level.name);
        levels.pop_back();
        if (::chdir("..") != 0) {
            std::fprintf(stderr, "temp_tree: cannot go back up from %s\n", done.c_str());
            return;
        }
        remove_directory(done);
    }
}

void remove_tree(const std::string& root, const std::vector<std::string>& deep_tops) {
    if (!deep_tops.empty()) {
        int cwd = ::open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
        for (const std::string& top : deep_tops) {
            std::size_t slash = top.find_last_of('/');
            if (::chdir(top.substr(0, slash).c_str()) == 0) {
                remove_here(top.c_str() + slash + 1);
            }
        }
        if (cwd < 0 || ::fchdir(cwd) != 0) {
            std::fprintf(stderr, "temp_tree: cannot return to the working directory\n");
        }
        if (cwd >= 0) {
            ::close(cwd);
        }
    }
    // A directory made unreadable hides its contents from nftw; each pass
    // makes one more level readable, so repeat while a pass met one.
    for (int pass = 0; pass < 64; ++pass) {
        unreadable_seen = 0;
        ::chmod(root.c_str(), 0755);
        ::nftw(root.c_str(), make_searchable, 32, FTW_PHYS);
        if (unreadable_seen == 0) {
            break;
        }
    }
    ::nftw(root.c_str(), remove_entry, 32, FTW_DEPTH | FTW_PHYS);
}

struct LiveTree {
    const TempTree* tree;
    std::string root;
    std::vector<std::string> deep_tops;
};

std::vector<LiveTree>& live_trees() {
    static std::vector<LiveTree> trees;
    return trees;
}

LiveTree* find_live(const TempTree* tree) {
    for (LiveTree& live : live_trees()) {
        if (live.tree == tree) {
            return &live;
        }
    }
    return nullptr;
}

void remove_live_trees() {
    for (const LiveTree& live : live_trees()) {
        remove_tree(live.root, live.deep_tops);
    }
    live_trees().clear();
}

// A test that crashes (an abort in the code under test, a segfault) skips
// atexit too.  Its trees are removed here before the signal takes its default
// course, so the test runner still sees the crash.  Removal is not
// async-signal-safe: should it hang (say, on a malloc lock held when the
// crash came), the alarm ends the process a few seconds later.
void remove_live_trees_and_die(int signal_number) {
    ::alarm(5);
    remove_live_trees();
    ::raise(signal_number);  // SA_RESETHAND restored the default action
}

void install_crash_cleanup() {
    struct sigaction action {};
    action.sa_handler = remove_live_trees_and_die;
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    ::sigemptyset(&action.sa_mask);
    for (int signal_number : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) {
        // A handler already there belongs to a sanitizer (AddressSanitizer
        // takes SIGSEGV, SIGBUS and SIGFPE): replacing it would hide its
        // report of the crash, which matters more than the tree.
        struct sigaction current {};
        if (::sigaction(signal_number, nullptr, &current) == 0 &&
            (current.sa_flags & SA_SIGINFO || current.sa_handler != SIG_DFL)) {
            continue;
        }
        ::sigaction(signal_number, &action, nullptr);
    }
}

void make_uniform_level(TempTree& tree, const std::string& relative, unsigned level,
                        unsigned fanout, unsigned depth, unsigned files_per_dir,
                        UniformCounts& counts) {
    tree.directory(relative);
    ++counts.directories;
    ++counts.at_depth[level];
    counts.paths.push_back(relative);
    for (unsigned i = 0; i < files_per_dir; ++i) {
        std::string name = relative + "/f" + std::to_string(i);
        tree.file(name);
        ++counts.files;
        ++counts.at_depth[level + 1];
        counts.paths.push_back(name);
    }
    if (level < depth) {
        for (unsigned i = 0; i < fanout; ++i) {
            make_uniform_level(tree, relative + "/d" + std::to_string(i), level + 1, fanout,
                               depth, files_per_dir, counts);
        }
    }
}

} // namespace

std::size_t UniformCounts::entries_between(int min_depth, int max_depth) const {
    std::size_t total = 0;
    for (std::size_t d = 0; d < at_depth.size(); ++d) {
        if (static_cast<int>(d) >= min_depth && static_cast<int>(d) <= max_depth) {
            total += at_depth[d];
        }
    }
    return total;
}

TempTree::TempTree() {
    static bool handler_registered = false;
    live_trees();  // constructed before the handler is registered: outlives it
    if (!handler_registered) {
        std::atexit(remove_live_trees);
        install_crash_cleanup();
        handler_registered = true;
    }
    // $TMPDIR when it names a directory, as mkdtemp users do; else /tmp.
    const char* base = std::getenv("TMPDIR");
    struct stat st;
    if (!base || base[0] != '/' || ::stat(base, &st) != 0 || !S_ISDIR(st.st_mode)) {
        base = "/tmp";
    }
    std::string name = std::string(base) + "/ioq-test-XXXXXX";
    if (!::mkdtemp(name.data())) {
        die("mkdtemp in " + std::string(base));
    }
    root_ = name;
    live_trees().push_back({this, root_, {}});
}

TempTree::~TempTree() {
    if (LiveTree* live = find_live(this)) {
        remove_tree(root_, live->deep_tops);
    }
    auto& trees = live_trees();
    trees.erase(std::remove_if(trees.begin(), trees.end(),
                               [this](const LiveTree& live) { return live.tree == this; }),
                trees.end());
}

std::string TempTree::path(std::string_view relative) const {
    if (relative.empty()) {
        return root_;
    }
    std::string full = root_;
    full.push_back('/');
    full.append(relative);
    return full;
}

void TempTree::make_parents(std::string_view relative) {
    for (std::size_t slash = relative.find('/'); slash != std::string_view::npos;
         slash = relative.find('/', slash + 1)) {
        if (slash == 0) {
            continue;
        }
        std::string parent = path(relative.substr(0, slash));
        if (::mkdir(parent.c_str(), 0755) != 0 && errno != EEXIST) {
            die("mkdir " + parent);
        }
    }
}

void TempTree::build(std::string_view description) {
    const char* blanks = " \t\n";
    std::size_t start = description.find_first_not_of(blanks);
    while (start != std::string_view::npos) {
        std::size_t end = description.find_first_of(blanks, start);
        std::string_view item = description.substr(start, end == std::string_view::npos
                                                              ? std::string_view::npos
                                                              : end - start);
        if (std::size_t arrow = item.find("->"); arrow != std::string_view::npos) {
            symlink(item.substr(0, arrow), item.substr(arrow + 2));
        } else if (item.back() == '/') {
            directory(item.substr(0, item.size() - 1));
        } else {
            file(item);
        }
        start = description.find_first_not_of(blanks, end);
    }
}

void TempTree::directory(std::string_view relative, mode_t mode) {
    make_parents(relative);
    std::string full = path(relative);
    if (::mkdir(full.c_str(), mode) != 0) {
        if (errno != EEXIST) {
            die("mkdir " + full);
        }
    }
    // mkdir's mode passes through the umask; the caller asked for this one.
    if (::chmod(full.c_str(), mode) != 0) {
        die("chmod " + full);
    }
}

void TempTree::file(std::string_view relative, std::string_view contents) {
    make_parents(relative);
    std::string full = path(relative);
    int fd = ::open(full.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        die("create " + full);
    }
    std::size_t done = 0;
    while (done < contents.size()) {
        ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
        if (n <= 0) {
            die("write " + full);
        }
        done += static_cast<std::size_t>(n);
    }
    ::close(fd);
}

void TempTree::symlink(std::string_view relative, std::string_view target) {
    make_parents(relative);
    std::string full = path(relative);
    if (::symlink(std::string(target).c_str(), full.c_str()) != 0) {
        die("symlink " + full);
    }
}

void TempTree::fifo(std::string_view relative) {
    make_parents(relative);
    std::string full = path(relative);
    if (::mkfifo(full.c_str(), 0644) != 0) {
        die("mkfifo " + full);
    }
}

void TempTree::chmod(std::string_view relative, mode_t mode) {
    std::string full = path(relative);
    if (::chmod(full.c_str(), mode) != 0) {
        die("chmod " + full);
    }
}

std::vector<std::string> TempTree::many_files(std::string_view relative, std::size_t count,
                                              std::string_view prefix) {
    directory(relative);
    std::string full = path(relative);
    int dirfd = ::open(full.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0) {
        die("open " + full);
    }
    std::vector<std::string> names;
    names.reserve(count);
    char number[32];
    for (std::size_t i = 0; i < count; ++i) {
        std::snprintf(number, sizeof number, "%04zu", i);
        std::string name = std::string(prefix) + number;
        int fd = ::openat(dirfd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0) {
            die("create " + full + "/" + name);
        }
        ::close(fd);
        names.push_back(std::move(name));
    }
    ::close(dirfd);
    return names;
}

UniformCounts TempTree::make_uniform(std::string_view relative, unsigned fanout, unsigned depth,
                                     unsigned files_per_dir) {
    UniformCounts counts;
    counts.at_depth.assign(depth + 2, 0);
    make_uniform_level(*this, std::string(relative), 0, fanout, depth, files_per_dir, counts);
    counts.entries = counts.directories + counts.files;
    if (files_per_dir == 0) {
        counts.at_depth.pop_back();  // nothing below the deepest directories
    }
    return counts;
}

std::vector<std::string> TempTree::deep_chain(std::string_view relative, std::string_view stem,
                                              unsigned levels, unsigned files_per_level) {
    directory(relative);
    std::string full = path(relative);
    int fd = ::open(full.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        die("open " + full);
    }
    if (levels > 0) {
        find_live(this)->deep_tops.push_back(full + "/" + std::string(stem) + "0");
    }
    std::vector<std::string> created;
    std::string current(relative);
    for (unsigned level = 0; level < levels; ++level) {
        std::string name = std::string(stem) + std::to_string(level);
        if (::mkdirat(fd, name.c_str(), 0755) != 0) {
            die("mkdirat " + current + "/" + name);
        }
        int next = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (next < 0) {
            die("openat " + current + "/" + name);
        }
        ::close(fd);
        fd = next;
        current += "/" + name;
        created.push_back(current);
        for (unsigned i = 0; i < files_per_level; ++i) {
            std::string file = "f";  // appended: GCC 12 -Wrestrict misfires on "f" + ...
            file += std::to_string(i);
            int made = ::openat(fd, file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
            if (made < 0) {
                die("create " + current + "/" + file);
            }
            ::close(made);
            created.push_back(current + "/" + file);
        }
    }
    ::close(fd);
    return created;
}

void TempTree::chown_all(uid_t uid, gid_t gid) {
    chown_uid = uid;
    chown_gid = gid;
    ::nftw(root_.c_str(), change_owner, 32, FTW_PHYS);
}

std::size_t count_open_fds() {
    DIR* dir = ::opendir("/proc/self/fd");
    if (!dir) {
        die("opendir /proc/self/fd");
    }
    std::size_t count = 0;
    while (const dirent* entry = ::readdir(dir)) {
        if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) {
            ++count;
        }
    }
    ::closedir(dir);
    return count - 1;  // the descriptor opendir itself holds
}

bool lists_end_marked(const std::string& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        die("open " + path);
    }
    std::vector<char> bytes(1 << 20);
    long got = ::syscall(SYS_getdents64, fd, bytes.data(), bytes.size());
    ::close(fd);
    if (got <= 0) {
        die("getdents64 " + path);
    }
    std::int64_t last_off = 0;
    for (long at = 0; at < got;) {
        unsigned short reclen;
        std::memcpy(&reclen, bytes.data() + at + 16, sizeof reclen);
        std::memcpy(&last_off, bytes.data() + at + 8, sizeof last_off);
        at += reclen;
    }
    return last_off == INT64_MAX;
}

} // namespace test
