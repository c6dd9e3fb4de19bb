// TempTree: a directory tree a test builds for itself and that removes itself.
//
// Every unit test that touches the file system makes its own tree under /tmp
// (mkdtemp; $TMPDIR instead when set), so no test depends on the machine's files or on another test's
// leftovers:
//
//   TempTree tree;                                  // /tmp/ioq-test-XXXXXX
//   tree.build("src/ src/a.c src/lib/ link->src");  // compact description
//   UniformCounts counts = tree.make_uniform("u", 3, 4, 2);
//   ... walk tree.path("u") and compare with counts ...
//                                                   // destructor: chmod u+rwx
//                                                   // everywhere, then remove
//
// Compact description: whitespace-separated items, each relative to the root;
// a trailing '/' makes a directory, "name->target" a symbolic link, anything
// else an empty regular file.  Missing parent directories are created.  Names
// with spaces or other odd bytes go through the single-item calls instead.
//
// Removal restores permissions first (a test may chmod 000 a directory), so it
// works for unprivileged users too, and never follows symbolic links (nftw
// FTW_DEPTH | FTW_PHYS).  nftw hands its callbacks whole paths, so chains made
// by deep_chain(), which may be longer than PATH_MAX, are removed first one
// component at a time (chdir down, unlink, chdir back up).  Failures while building abort the test
// process with a message: a test whose tree is wrong proves nothing.
//
// Criterion ends a failed assertion with longjmp, which skips destructors;
// trees still alive when the test process exits are removed by an atexit
// handler, and by a handler of fatal signals when it crashes (those signals
// a sanitizer does not handle already), so a failing test does not litter
// /tmp either.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace test {

// What make_uniform() created, as a walk of its top directory should see it:
// the top directory itself is depth 0.
struct UniformCounts {
    std::size_t directories = 0;       // including the top directory
    std::size_t files = 0;
    std::size_t entries = 0;           // directories + files
    std::vector<std::size_t> at_depth; // at_depth[d]: entries at depth d
    std::vector<std::string> paths;    // every entry's path relative to the
                                       // tree root (the top directory first)

    // Entries whose depth lies in [min_depth, max_depth].
    std::size_t entries_between(int min_depth, int max_depth) const;
};

class TempTree {
public:
    TempTree();
    ~TempTree();
    TempTree(const TempTree&) = delete;
    TempTree& operator=(const TempTree&) = delete;

    // The absolute path of the tree's top directory (no trailing slash).
    const std::string& root() const { return root_; }
    // root() + "/" + relative, or root() for an empty relative path.
    std::string path(std::string_view relative) const;

    void build(std::string_view description);
    void directory(std::string_view relative, mode_t mode = 0755);
    void file(std::string_view relative, std::string_view contents = {});
    void symlink(std::string_view relative, std::string_view target);
    void fifo(std::string_view relative);
    void chmod(std::string_view relative, mode_t mode);

    // Creates `count` empty files named prefix0000, prefix0001, ... in the
    // directory `relative` (created if missing); returns their names.
    std::vector<std::string> many_files(std::string_view relative, std::size_t count,
                                        std::string_view prefix = "e");

    // A uniform tree at `relative`: every directory down to depth `depth`
    // holds `files_per_dir` files f0, f1, ...; every directory above depth
    // `depth` also holds `fanout` subdirectories d0, d1, ...
    UniformCounts make_uniform(std::string_view relative, unsigned fanout, unsigned depth,
                               unsigned files_per_dir);

    // A chain of `levels` nested directories below `relative` (created if
    // missing), named stem0, stem1, ..., each holding `files_per_level` files
    // f0, f1, ...  Built with mkdirat, so the chain may be longer than
    // PATH_MAX.  Returns the relative path of everything created, in order.
    std::vector<std::string> deep_chain(std::string_view relative, std::string_view stem,
                                        unsigned levels, unsigned files_per_level = 0);

    // Gives every file of the tree (the top directory included) to uid:gid,
    // without following symbolic links; for tests that drop privileges.
    void chown_all(uid_t uid, gid_t gid);

private:
    void make_parents(std::string_view relative);

    std::string root_;
};

// The number of open descriptors of this process (entries of /proc/self/fd,
// not counting the one used to list them).
std::size_t count_open_fds();

// Whether the file system holding the directory `path` ends its listings
// with a record whose d_off is INT64_MAX (ext4's hash order), which lets a
// walk skip the getdents64 that would return nothing; read with getdents64
// itself, apart from the code under test.
bool lists_end_marked(const std::string& path);

} // namespace test
