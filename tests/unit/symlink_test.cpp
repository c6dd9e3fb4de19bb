// Unit tests of symbolic links and devices through the public API (ioq.h,
// ioq.hpp): the symlinks field (find's -P, -H, -L) and same_device (-xdev).
//
// GNU find is the oracle for everything a link can do, on a tree that holds
// one of each:
//
//   t/dir/file  t/dir/sub/inner
//   t/dir/sub/up   -> ../..     an ancestor: the starting point itself
//   t/dir/sub/back -> ..        an ancestor below the starting point
//   t/file
//   t/link_dir -> dir           t/link_file -> file      t/abs_dir -> /.../t/dir
//   t/hop1 -> hop2 -> dir       a link to a link to a directory
//   t/broken -> nowhere
//   t/self -> self              t/loop_a -> loop_b -> loop_a
//
// For each mode, strategy and backend, and for starting points that are the
// tree, a link to a directory (with and without a trailing slash), a link to
// a file, a broken link and a looping link:
//
//   find MODE ROOT -printf '%d %y %Y %p\0'   vs   entries (depth, type, and
//                                                   ioq_walk_stat followed)
//   find's stderr                            vs   error entries: errno text,
//                                                   or loop_ancestor for
//                                                   "File system loop detected"
//
// same_device: a walk of "/" to depth 2 must not enter /proc or /sys where
// they are mounts of their own; and, where this process may create a mount
// namespace (root), a tmpfs mounted inside a tree is compared with
// find -xdev in a child that mounts it privately.
#include "temp_tree.hpp"
#include "walk_harness.hpp"

#include <ioq.h>
#include <ioq.hpp>

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct ApiBackend {
    const char* label;
    ioq_backend backend;
};

std::vector<ApiBackend> api_backends() {
    std::vector<ApiBackend> backends = {{"inline", IOQ_BACKEND_INLINE},
                                        {"threads", IOQ_BACKEND_THREADS}};
    if (ioq::probe_uring().usable) {
        backends.push_back({"io_uring", IOQ_BACKEND_URING});
    } else {
        cr_log_warn("io_uring skipped: not usable here (%s)", ioq::probe_uring().reason);
    }
    return backends;
}

const ioq_strategy api_strategies[] = {IOQ_STRATEGY_BFS, IOQ_STRATEGY_DFS, IOQ_STRATEGY_IDS,
                                       IOQ_STRATEGY_EDS, IOQ_STRATEGY_HYBRID};

const char* strategy_label(ioq_strategy strategy) {
    switch (strategy) {
    case IOQ_STRATEGY_BFS: return "bfs";
    case IOQ_STRATEGY_DFS: return "dfs";
    case IOQ_STRATEGY_IDS: return "ids";
    case IOQ_STRATEGY_EDS: return "eds";
    case IOQ_STRATEGY_HYBRID: return "hybrid";
    }
    return "?";
}

struct Mode {
    const char* option;  // find's
    ioq_symlinks symlinks;
};

const Mode all_modes[] = {{"-P", IOQ_SYMLINKS_PHYSICAL},
                          {"-H", IOQ_SYMLINKS_ROOTS},
                          {"-L", IOQ_SYMLINKS_LOGICAL}};

char type_letter(ioq_type type) {
    return test::type_letter(static_cast<ioq::walk::EntryType>(type));
}

char mode_letter(unsigned mode) {
    switch (mode & S_IFMT) {
    case S_IFREG: return 'f';
    case S_IFDIR: return 'd';
    case S_IFLNK: return 'l';
    case S_IFBLK: return 'b';
    case S_IFCHR: return 'c';
    case S_IFIFO: return 'p';
    case S_IFSOCK: return 's';
    default: return 'U';
    }
}

// What find says on stderr, and what the walk's error entries say, in the
// same words: "loop PATH ANCESTOR" or "error PATH MESSAGE", sorted.
std::vector<std::string> find_errors(const std::string& stderr_text) {
    const std::string prefix = "find: ";
    const std::string loop = "File system loop detected; '";
    const std::string middle = "' is part of the same file system loop as '";
    std::vector<std::string> errors;
    std::istringstream lines(stderr_text);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(prefix, 0) != 0) {
            errors.push_back("unparsed " + line);
            continue;
        }
        line.erase(0, prefix.size());
        if (line.rfind(loop, 0) == 0 && line.size() > loop.size() + middle.size() + 2) {
            std::string rest = line.substr(loop.size(), line.size() - loop.size() - 2);  // "'."
            std::size_t cut = rest.find(middle);
            errors.push_back("loop " + rest.substr(0, cut) + " " +
                             rest.substr(cut + middle.size()));
        } else if (line.size() > 1 && line[0] == '\'') {
            std::size_t cut = line.find("': ");
            errors.push_back("error " + line.substr(1, cut - 1) + " " + line.substr(cut + 3));
        } else {
            errors.push_back("unparsed " + line);
        }
    }
    std::sort(errors.begin(), errors.end());
    return errors;
}

struct FindOutput {
    std::vector<std::string> records;  // "DEPTH %y %Y PATH", sorted
    std::vector<std::string> errors;
};

// find MODE ROOTS EXPRESSION -printf ..., its stderr through errors_file.
FindOutput run_find(const char* mode, const std::vector<std::string>& roots,
                    const std::string& errors_file, const std::string& expression = "") {
    std::string command = std::string("LC_ALL=C find ") + mode;
    for (const std::string& root : roots) {
        command += " " + test::shell_quote(root);
    }
    command += " " + expression + " -printf '%d %y %Y %p\\0' 2>" + test::shell_quote(errors_file) + " </dev/null";
    FindOutput out;
    out.records = test::run_records(command);
    std::sort(out.records.begin(), out.records.end());
    std::ifstream file(errors_file);
    std::stringstream text;
    text << file.rdbuf();
    out.errors = find_errors(text.str());
    return out;
}

struct WalkOutput {
    std::vector<std::string> records;  // as FindOutput's
    std::vector<std::string> errors;
    std::vector<std::string> problems;
    std::map<std::string, const char*> error_of;      // path -> errno name
    std::map<std::string, std::string> ancestor_of;  // path -> loop_ancestor
    std::size_t duplicates = 0;
    std::string first_duplicate;
};

WalkOutput walk_api(const std::vector<std::string>& roots, ioq_walk_options options) {
    std::vector<const char*> root_pointers;
    for (const std::string& root : roots) {
        root_pointers.push_back(root.c_str());
    }
    WalkOutput out;
    ioq::Walk walk(root_pointers, options);
    if (walk.error()) {
        out.problems.push_back(std::string("open: ") + std::strerror(-walk.error()));
        return out;
    }
    std::set<std::string> seen;
    while (const ioq::Entry* entry = walk.next()) {
        std::string path(entry->path());
        if (entry->error()) {
            if (entry->loop_ancestor()) {
                out.errors.push_back("loop " + path + " " + entry->loop_ancestor());
                out.ancestor_of[path] = entry->loop_ancestor();
                if (entry->error() != ELOOP) {
                    out.problems.push_back(path + ": loop_ancestor set with error " +
                                           std::strerror(entry->error()));
                }
            } else {
                out.errors.push_back("error " + path + " " + std::strerror(entry->error()));
            }
            out.error_of[path] = strerrorname_np(entry->error());
            struct statx buf;
            int ret = walk.stat(STATX_TYPE, true, buf);
            if (ret != -entry->error()) {
                out.problems.push_back(path + ": stat of an error entry returned " +
                                       std::to_string(ret));
            }
            continue;
        }
        if (!seen.insert(path).second && out.duplicates++ == 0) {
            out.first_duplicate = path;
        }
        // %Y: the type with links followed; L for a loop, N for nothing.
        char followed;
        struct statx buf;
        int ret = walk.stat(STATX_TYPE, true, buf);
        if (ret == 0) {
            followed = mode_letter(buf.stx_mode);
        } else if (ret == -ELOOP) {
            followed = 'L';
        } else if (ret == -ENOENT) {
            followed = 'N';
        } else {
            followed = '?';
        }
        out.records.push_back(std::to_string(entry->depth()) + " " + type_letter(entry->type()) +
                              " " + followed + " " + path);
        if (entry->loop_ancestor()) {
            out.problems.push_back(path + ": loop_ancestor set on an entry without error");
        }
    }
    std::sort(out.records.begin(), out.records.end());
    std::sort(out.errors.begin(), out.errors.end());
    return out;
}

std::string join(const std::vector<std::string>& lines, std::size_t most = 4) {
    std::string text;
    for (std::size_t i = 0; i < lines.size() && i < most; ++i) {
        text += (i ? " | " : "") + lines[i];
    }
    if (lines.size() > most) {
        text += " | ... (" + std::to_string(lines.size()) + " in all)";
    }
    return text.empty() ? "(none)" : text;
}

struct LinkTree {
    test::TempTree tree;
    std::string root;

    LinkTree() {
        tree.build("t/dir/file t/dir/sub/inner t/dir/sub/up->../.. t/dir/sub/back->.. t/file "
                   "t/link_dir->dir t/link_file->file t/hop1->hop2 t/hop2->dir "
                   "t/broken->nowhere t/self->self t/loop_a->loop_b t/loop_b->loop_a");
        tree.symlink("t/abs_dir", tree.path("t/dir"));
        root = tree.path("t");
    }
};

// Compares one walk with find; `where` names the configuration.
void expect_same_as_find(const std::vector<std::string>& roots, const Mode& mode,
                         const test::TempTree& tree) {
    FindOutput want = run_find(mode.option, roots, tree.root() + "/find-errors");
    std::string label = std::string(mode.option) + " " + roots.front();
    for (const ApiBackend& backend : api_backends()) {
        for (ioq_strategy strategy : api_strategies) {
            std::string where =
                label + " " + backend.label + "/" + strategy_label(strategy);
            ioq_walk_options options = ioq::Walk::defaults();
            options.backend = backend.backend;
            options.workers = 2;
            options.strategy = strategy;
            options.symlinks = mode.symlinks;
            WalkOutput got = walk_api(roots, options);
            cr_expect(got.problems.empty(), "%s: %s", where.c_str(), join(got.problems).c_str());
            cr_expect(got.records == want.records, "%s: entries differ from find: %s",
                      where.c_str(), test::first_difference(want.records, got.records).c_str());
            cr_expect(got.errors == want.errors, "%s: errors differ: find says %s; walk says %s",
                      where.c_str(), join(want.errors).c_str(), join(got.errors).c_str());
            cr_expect_eq(got.duplicates, 0u, "%s: %zu paths twice, first %s", where.c_str(),
                         got.duplicates, got.first_duplicate.c_str());
        }
    }
}

} // namespace

// --------------------------------------------------------------------------
// -P, -H, -L against find
// --------------------------------------------------------------------------

Test(symlink, every_mode_matches_find_from_the_tree_root) {
    LinkTree t;
    for (const Mode& mode : all_modes) {
        expect_same_as_find({t.root}, mode, t.tree);
    }
}

Test(symlink, every_mode_matches_find_for_link_starting_points) {
    LinkTree t;
    const std::vector<std::vector<std::string>> root_sets = {
        {t.tree.path("t/link_dir")},
        {t.tree.path("t/link_dir/")},
        {t.tree.path("t/hop1")},
        {t.tree.path("t/link_file")},
        {t.tree.path("t/broken")},
        {t.tree.path("t/self")},
        {t.tree.path("t/dir/sub/up"), t.tree.path("t/abs_dir")},
    };
    for (const auto& roots : root_sets) {
        for (const Mode& mode : all_modes) {
            expect_same_as_find(roots, mode, t.tree);
        }
    }
}

// The cases the comparison covers, spelled out, so that a failure says what
// broke without a diff to read.
Test(symlink, logical_walk_reports_loops_as_errors_and_goes_on) {
    LinkTree t;
    for (const ApiBackend& backend : api_backends()) {
        for (ioq_strategy strategy : api_strategies) {
            std::string where = std::string(backend.label) + "/" + strategy_label(strategy);
            ioq_walk_options options = ioq::Walk::defaults();
            options.backend = backend.backend;
            options.workers = 2;
            options.strategy = strategy;
            options.symlinks = IOQ_SYMLINKS_LOGICAL;
            WalkOutput got = walk_api({t.root}, options);
            auto error_at = [&](const std::string& relative) {
                auto it = got.error_of.find(t.tree.path(relative));
                return std::string(it == got.error_of.end() ? "none" : it->second);
            };
            auto ancestor_at = [&](const std::string& relative) {
                auto it = got.ancestor_of.find(t.tree.path(relative));
                return it == got.ancestor_of.end() ? std::string("none") : it->second;
            };
            auto reported = [&](const std::string& relative) {
                std::string suffix = " " + t.tree.path(relative);
                return std::any_of(got.records.begin(), got.records.end(),
                                   [&](const std::string& record) {
                                       return record.size() > suffix.size() &&
                                              record.ends_with(suffix);
                                   });
            };
            // A link to itself, and two links to each other: ELOOP, not a file.
            for (const char* link : {"t/self", "t/loop_a", "t/loop_b"}) {
                std::string error = error_at(link);
                std::string ancestor = ancestor_at(link);
                cr_expect(error == "ELOOP", "%s: %s: error %s, want ELOOP", where.c_str(), link,
                          error.c_str());
                cr_expect(!reported(link), "%s: %s reported as a file", where.c_str(), link);
                cr_expect(ancestor == "none", "%s: %s: loop_ancestor %s, want none",
                          where.c_str(), link, ancestor.c_str());
            }
            // Links to an ancestor: the ancestor is named, the walk goes on.
            const std::pair<const char*, std::string> loops[] = {
                {"t/dir/sub/up", t.root},
                {"t/dir/sub/back", t.tree.path("t/dir")},
                {"t/link_dir/sub/back", t.tree.path("t/link_dir")},
                {"t/hop1/sub/up", t.root},
                {"t/abs_dir/sub/back", t.tree.path("t/abs_dir")},
            };
            for (const auto& [link, ancestor] : loops) {
                std::string got_ancestor = ancestor_at(link);
                cr_expect(got_ancestor == ancestor, "%s: %s: loop_ancestor %s, want %s",
                          where.c_str(), link, got_ancestor.c_str(), ancestor.c_str());
            }
            std::string up_error = error_at("t/dir/sub/up");
            cr_expect(up_error == "ELOOP", "%s: t/dir/sub/up: error %s, want ELOOP",
                      where.c_str(), up_error.c_str());
            for (const char* present : {"t/dir/sub/inner", "t/link_dir/sub/inner",
                                        "t/abs_dir/file", "t/hop1/sub/inner", "t/broken"}) {
                cr_expect(reported(present), "%s: %s missing", where.c_str(), present);
            }
            cr_expect_eq(got.duplicates, 0u, "%s: %s twice", where.c_str(),
                         got.first_duplicate.c_str());
        }
    }
}

// --------------------------------------------------------------------------
// same_device
// --------------------------------------------------------------------------

namespace {

// Mount points from /proc/self/mountinfo (field 5, octal escapes undone).
std::set<std::string> mount_points() {
    std::set<std::string> points;
    std::ifstream file("/proc/self/mountinfo");
    for (std::string line; std::getline(file, line);) {
        std::istringstream fields(line);
        std::string field, point;
        for (int i = 0; i < 5 && fields >> field; ++i) {
            point = field;
        }
        std::string decoded;
        for (std::size_t i = 0; i < point.size(); ++i) {
            if (point[i] == '\\' && i + 3 < point.size()) {
                decoded += static_cast<char>(std::stoi(point.substr(i + 1, 3), nullptr, 8));
                i += 3;
            } else {
                decoded += point[i];
            }
        }
        points.insert(decoded);
    }
    return points;
}

bool on_another_device(const char* path, const char* than) {
    struct stat a, b;
    return ::lstat(path, &a) == 0 && ::lstat(than, &b) == 0 && S_ISDIR(a.st_mode) &&
           a.st_dev != b.st_dev;
}

} // namespace

Test(symlink, same_device_walk_of_root_stays_out_of_proc_and_sys) {
    std::set<std::string> points = mount_points();
    std::vector<std::string> separate;
    for (const char* candidate : {"/proc", "/sys"}) {
        if (points.count(candidate) && on_another_device(candidate, "/")) {
            separate.push_back(candidate);
        }
    }
    if (separate.empty()) {
        cr_skip_test("neither /proc nor /sys is a mount of its own here");
    }
    for (const ApiBackend& backend : api_backends()) {
        for (ioq_strategy strategy : api_strategies) {
            for (bool same_device : {true, false}) {
                std::string where = std::string(backend.label) + "/" + strategy_label(strategy) +
                                    (same_device ? " same_device" : " any device");
                ioq_walk_options options = ioq::Walk::defaults();
                options.backend = backend.backend;
                options.workers = 2;
                options.strategy = strategy;
                options.max_depth = 2;
                options.same_device = same_device;
                ioq::Walk walk({"/"}, options);
                cr_assert_eq(walk.error(), 0);
                std::map<std::string, std::size_t> below;  // mount point -> entries below
                std::set<std::string> reported;
                std::size_t entries = 0;
                for (const ioq::Entry& entry : walk) {
                    if (entry.error()) {
                        continue;  // /proc has entries that vanish
                    }
                    ++entries;
                    std::string path(entry.path());
                    reported.insert(path);
                    for (const std::string& point : separate) {
                        below[point] += test::is_below(path, point);
                    }
                }
                cr_expect_gt(entries, 20u, "%s: only %zu entries", where.c_str(), entries);
                for (const std::string& point : separate) {
                    cr_expect(reported.count(point), "%s: the mount point %s is not reported",
                              where.c_str(), point.c_str());
                    if (same_device) {
                        cr_expect_eq(below[point], 0u, "%s: %zu entries below %s", where.c_str(),
                                     below[point], point.c_str());
                    } else {
                        cr_expect_gt(below[point], 0u, "%s: nothing below %s", where.c_str(),
                                     point.c_str());
                    }
                }
            }
        }
    }
}

Test(symlink, same_device_matches_find_xdev_on_a_private_tmpfs_mount) {
    // The child enters a mount namespace of its own and mounts a tmpfs in
    // the tree there: nothing outside the child ever sees the mount, and it
    // goes away with the child.  find, started by the child, sees it too.
    LinkTree t;
    t.tree.build("t/mnt/ t/other/deeper/file");
    std::string mount_point = t.tree.path("t/mnt");
    std::string errors_file = t.tree.root() + "/find-errors";
    std::vector<ApiBackend> backends = api_backends();
    test::ChildResult child = test::run_in_child(
        [&]() -> std::string {
            if (::unshare(CLONE_NEWNS) != 0) {
                return std::string("SKIP unshare(CLONE_NEWNS): ") + std::strerror(errno);
            }
            if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
                ::mount("ioq-test", mount_point.c_str(), "tmpfs", 0, "size=1m") != 0) {
                return std::string("SKIP mount: ") + std::strerror(errno);
            }
            for (const char* name : {"/inside/", "/inside/deeper/", "/file"}) {
                std::string path = mount_point + name;
                bool ok = path.back() == '/'
                              ? ::mkdir(path.c_str(), 0755) == 0
                              : ::close(::open(path.c_str(), O_CREAT | O_WRONLY, 0644)) == 0;
                if (!ok) {
                    return "FAIL cannot create " + path + ": " + std::strerror(errno);
                }
            }
            std::string failures;
            // Without same_device the mount's contents are walked: the mount
            // is really there.
            ioq_walk_options any_device = ioq::Walk::defaults();
            WalkOutput everything = walk_api({t.root}, any_device);
            std::string inside = " " + mount_point + "/inside/deeper";
            if (std::none_of(everything.records.begin(), everything.records.end(),
                             [&](const std::string& record) { return record.ends_with(inside); })) {
                failures += "FAIL a walk without same_device does not see" + inside + "\n";
            }
            for (const Mode& mode : all_modes) {
                std::string options_text = std::string(mode.option) + " -xdev";
                FindOutput want = run_find(mode.option, {t.root}, errors_file, "-xdev");
                bool mount_listed = false;
                for (const std::string& record : want.records) {
                    mount_listed = mount_listed || record.ends_with(" " + mount_point);
                }
                if (!mount_listed) {
                    failures += "FAIL find " + options_text + " does not list the mount point\n";
                }
                for (const ApiBackend& backend : backends) {
                    for (ioq_strategy strategy : api_strategies) {
                        ioq_walk_options options = ioq::Walk::defaults();
                        options.backend = backend.backend;
                        options.workers = 2;
                        options.strategy = strategy;
                        options.symlinks = mode.symlinks;
                        options.same_device = 1;
                        WalkOutput got = walk_api({t.root}, options);
                        if (got.records != want.records || got.errors != want.errors) {
                            failures += "FAIL " + options_text + " " + backend.label + "/" +
                                        strategy_label(strategy) + ": " +
                                        test::first_difference(want.records, got.records) +
                                        "; errors: find " + join(want.errors) + "; walk " +
                                        join(got.errors) + "\n";
                        }
                    }
                }
            }
            return failures;
        },
        std::chrono::seconds(60));
    cr_assert(child.finished, "%s", child.problem.c_str());
    if (child.output.rfind("SKIP ", 0) == 0) {
        cr_skip_test("%s", child.output.c_str() + 5);
    }
    cr_expect(child.output.empty(), "%s", child.output.c_str());
}
