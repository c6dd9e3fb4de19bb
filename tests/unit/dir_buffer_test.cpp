// Unit tests of DirBuffer and DirentCursor (lib/ioq/dir_buffer.hpp): every
// entry of a directory once over several fills, buffers that grow and trim,
// the fields a cursor decodes, and a listing's marked end.  The oracle is
// the names the test created, and lstat.
#include "dir_names.hpp"
#include "ioq/dir_buffer.hpp"
#include "temp_tree.hpp"

#include <criterion/criterion.h>

#include <dirent.h>
#include <fcntl.h>
#include <malloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

using ioq::DirBuffer;
using ioq::DirentCursor;
using ioq::RawDirent;
using test::as_set;
using test::names_in;

namespace {

// Reads a directory through repeated fill() calls; returns every name and
// the number of fills.
std::vector<std::string> read_all(DirBuffer& buffer, int fd, int& fills) {
    std::vector<std::string> names;
    fills = 0;
    do {
        buffer.fill(fd);
        ++fills;
        cr_assert_eq(buffer.error(), 0, "fill: %s", std::strerror(buffer.error()));
        cr_assert(buffer.size() > 0 || buffer.at_end(), "fill made no progress");
        cr_assert(fills < 100000);
        std::vector<std::string> batch = names_in(buffer);
        names.insert(names.end(), batch.begin(), batch.end());
    } while (!buffer.at_end());
    return names;
}

} // namespace

Test(dir_buffer, thousands_of_entries_come_once_each_over_several_fills) {
    test::TempTree tree;
    std::vector<std::string> created = tree.many_files("big", 5000);
    int fd = ::open(tree.path("big").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(fd >= 0);
    for (std::size_t capacity : {DirBuffer::default_capacity, std::size_t{1024}}) {
        cr_assert_eq(::lseek(fd, 0, SEEK_SET), 0);
        DirBuffer buffer(capacity);
        int fills = 0;
        std::vector<std::string> names = read_all(buffer, fd, fills);
        cr_expect(fills > 1, "capacity %zu: 5000 entries in one fill?", capacity);
        cr_expect_eq(names.size(), created.size(), "capacity %zu: %zu names for %zu entries",
                     capacity, names.size(), created.size());
        std::set<std::string> unique = as_set(names);
        cr_expect_eq(unique.size(), names.size(), "capacity %zu: a name came twice", capacity);
        cr_expect(unique == as_set(created), "capacity %zu: names differ", capacity);
        cr_expect(!unique.count(".") && !unique.count(".."), "capacity %zu: . or .. reported",
                  capacity);
        // A further fill at the end stays at the end, empty.
        buffer.fill(fd);
        cr_expect(buffer.at_end() && buffer.size() == 0);
    }
    ::close(fd);
}

namespace {

// Buffers filled one after another on one thread share the read area lent
// to it: a large batch must take the area with it and a smaller one be
// copied out, so that each buffer still holds its own entries when the
// next is filled, through continued fills of a large directory and after
// trim().  The same must hold with no area lent (an area per fill).
void fill_in_turn_and_compare() {
    test::TempTree tree;
    std::vector<std::string> big_a = tree.many_files("a", 1500);
    std::vector<std::string> big_b = tree.many_files("b", 1500);
    tree.build("small/x small/y small/sub/");
    auto open_dir = [&](const char* name) {
        int fd = ::open(tree.path(name).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        cr_assert(fd >= 0, "open %s: %s", name, std::strerror(errno));
        return fd;
    };
    int fd_a = open_dir("a");
    int fd_b = open_dir("b");
    int fd_small = open_dir("small");
    DirBuffer a, b, small;
    std::vector<std::string> names_a, names_b;
    // Interleaved: a, b, small, then the rest of a and b batch by batch,
    // each batch checked only after the other buffers were filled.
    a.fill(fd_a);
    b.fill(fd_b);
    small.fill(fd_small);
    cr_assert(!a.at_end() && !b.at_end(), "1500 entries fill more than one %zu-byte batch",
              DirBuffer::default_capacity);
    cr_assert_gt(a.size(), DirBuffer::small_limit);
    cr_expect(as_set(names_in(small)) == std::set<std::string>({"x", "y", "sub"}));
    for (int round = 0; round < 100 && !(a.at_end() && b.at_end()); ++round) {
        std::vector<std::string> batch_a = names_in(a);
        std::vector<std::string> batch_b = names_in(b);
        names_a.insert(names_a.end(), batch_a.begin(), batch_a.end());
        names_b.insert(names_b.end(), batch_b.begin(), batch_b.end());
        if (!a.at_end()) {
            a.fill(fd_a);
        }
        small.fill(fd_small);  // at its end: empty, and must not touch a or b
        cr_expect(small.at_end() && names_in(small).empty());
        if (!b.at_end()) {
            b.fill(fd_b);
        }
        cr_assert_eq(a.error(), 0);
        cr_assert_eq(b.error(), 0);
    }
    std::vector<std::string> last_a = names_in(a), last_b = names_in(b);
    names_a.insert(names_a.end(), last_a.begin(), last_a.end());
    names_b.insert(names_b.end(), last_b.begin(), last_b.end());
    cr_expect_eq(names_a.size(), big_a.size(), "%zu names of a", names_a.size());
    cr_expect(as_set(names_a) == as_set(big_a), "a's entries changed under later fills");
    cr_expect_eq(names_b.size(), big_b.size(), "%zu names of b", names_b.size());
    cr_expect(as_set(names_b) == as_set(big_b), "b's entries changed under later fills");

    // Done with: empty, and filled again from the start it reads it all.
    a.trim();
    cr_expect_eq(a.size(), 0);
    cr_expect(names_in(a).empty());
    cr_assert_eq(::lseek(fd_a, 0, SEEK_SET), 0);
    int fills = 0;
    std::vector<std::string> again = read_all(a, fd_a, fills);
    cr_expect(as_set(again) == as_set(big_a) && again.size() == big_a.size());
    ::close(fd_a);
    ::close(fd_b);
    ::close(fd_small);
}

} // namespace

Test(dir_buffer, buffers_filled_in_turn_keep_their_own_entries) {
    {
        ioq::ReadArea area;
        ioq::ReadAreaLoan loan(area);
        fill_in_turn_and_compare();
    }
    fill_in_turn_and_compare();
}

// A sanitizer's allocator replaces malloc's, whose counts mallinfo2 reads.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool malloc_counts_allocations = false;
#elif defined(__has_feature)
constexpr bool malloc_counts_allocations =
    !__has_feature(address_sanitizer) && !__has_feature(thread_sanitizer);
#else
constexpr bool malloc_counts_allocations = true;
#endif

// A pooled buffer must not keep what its largest directory needed: after
// trim(), the memory for a large batch and for its entries' statx results
// is back with malloc (this test runs on one thread, whose allocations
// mallinfo2 counts), and the buffer still reads and stats a directory.
Test(dir_buffer, trim_frees_what_a_large_directory_needed) {
    test::TempTree tree;
    tree.many_files("big", 1500);
    tree.build("small/x small/y/");
    int big = ::open(tree.path("big").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int small = ::open(tree.path("small").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(big >= 0 && small >= 0);
    auto stat_everything = [](DirBuffer& buffer, int fd) {
        buffer.stat_entries(fd, STATX_INO | STATX_SIZE, AT_SYMLINK_NOFOLLOW);
        DirentCursor cursor(buffer);
        RawDirent dirent;
        std::size_t i = 0;
        for (; cursor.next(dirent); ++i) {
            const struct statx* got = buffer.stat(i);
            cr_assert(got, "%s: no statx result", std::string(dirent.name).c_str());
            cr_expect_eq(got->stx_ino, dirent.inode, "%s: statx of another entry",
                         std::string(dirent.name).c_str());
        }
        return i;
    };

    // Bytes in use in the main arena and in blocks malloc mapped apart.
    auto allocated = [] {
        struct mallinfo2 info = ::mallinfo2();
        return info.uordblks + info.hblkhd;
    };
    DirBuffer buffer;
    std::size_t before = allocated();
    buffer.fill(big);
    std::size_t entries = stat_everything(buffer, big);
    cr_assert_gt(entries, 500);
    std::size_t holding = allocated();
    buffer.trim();
    std::size_t after = allocated();
    if (malloc_counts_allocations) {
        std::size_t needed = entries * sizeof(struct statx) + DirBuffer::default_capacity / 2;
        cr_assert_geq(holding - before, needed, "%zu bytes held for %zu entries",
                      holding - before, entries);
        cr_expect_lt(after - before, 8 * 1024, "%zu bytes still held after trim", after - before);
    }

    buffer.fill(small);
    cr_expect(buffer.at_end());
    cr_expect_eq(stat_everything(buffer, small), 2);
    ::close(big);
    ::close(small);
}

// A buffer's own block starts at small_initial bytes and grows to the
// largest batch it is given, up to small_limit: a fresh buffer holds no
// more than that block (with malloc's overhead), a listing larger than
// it but within small_limit, filled or assigned, comes back whole, and a
// small one read after it too.
Test(dir_buffer, own_block_starts_small_and_grows_to_the_listings_given) {
    test::TempTree tree;
    // 40 names of 24 characters: 48-byte records, 1,968 bytes with . and ..
    std::vector<std::string> medium = tree.many_files("medium", 40, "a_rather_long_name_");
    tree.build("small/x small/y/");
    int medium_fd = ::open(tree.path("medium").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int small_fd = ::open(tree.path("small").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(medium_fd >= 0 && small_fd >= 0);
    auto allocated = [] {
        struct mallinfo2 info = ::mallinfo2();
        return info.uordblks + info.hblkhd;
    };

    std::size_t before = allocated();
    auto buffer = std::make_unique<DirBuffer>();
    std::size_t fresh = allocated() - before;
    if (malloc_counts_allocations) {
        cr_expect_leq(fresh, sizeof(DirBuffer) + DirBuffer::small_initial + 64,
                      "a fresh buffer holds %zu bytes", fresh);
    }
    buffer->fill(medium_fd);
    cr_assert(buffer->at_end());
    cr_assert(buffer->size() > DirBuffer::small_initial && buffer->size() <= DirBuffer::small_limit,
              "the medium listing is %zu bytes", buffer->size());
    cr_expect(as_set(names_in(*buffer)) == as_set(medium));
    std::vector<std::byte> listing(buffer->data(), buffer->data() + buffer->size());
    buffer->fill(small_fd);
    cr_expect(as_set(names_in(*buffer)) == std::set<std::string>({"x", "y"}));

    DirBuffer assigned;
    cr_assert(assigned.assign(listing.data(), listing.size()));
    cr_expect(assigned.at_end());
    cr_expect(as_set(names_in(assigned)) == as_set(medium));
    cr_expect_eq(assigned.count_directories(100, false), 0);
    ::close(medium_fd);
    ::close(small_fd);
}

Test(dir_buffer, cursor_reports_types_and_inodes_and_skips_dot_entries) {
    test::TempTree tree;
    tree.build("d/file d/sub/ d/link->file d/.hidden d/..x d/.../");
    tree.fifo("d/pipe");
    int fd = ::open(tree.path("d").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(fd >= 0);
    DirBuffer buffer;
    buffer.fill(fd);
    cr_expect(buffer.at_end(), "a directory of 7 entries is read to its end in one fill");
    std::map<std::string, RawDirent> seen;
    DirentCursor cursor(buffer);
    RawDirent dirent;
    while (cursor.next(dirent)) {
        cr_expect(!seen.count(std::string(dirent.name)), "%s twice", std::string(dirent.name).c_str());
        seen[std::string(dirent.name)] = dirent;
    }
    std::set<std::string> want = {"file", "sub", "link", ".hidden", "..x", "...", "pipe"};
    std::set<std::string> got;
    for (const auto& [name, entry] : seen) {
        got.insert(name);
        struct stat st;
        cr_assert_eq(::lstat(tree.path("d/" + name).c_str(), &st), 0);
        cr_expect_eq(entry.inode, st.st_ino, "%s: inode", name.c_str());
        unsigned char type = entry.type;
        if (type != DT_UNKNOWN) {
            cr_expect_eq(DTTOIF(type), st.st_mode & S_IFMT, "%s: d_type %d", name.c_str(), type);
        }
        cr_expect_eq(entry.name.data()[entry.name.size()], '\0',
                     "%s: name not NUL-terminated", name.c_str());
    }
    cr_expect(got == want, "the cursor must skip exactly . and ..");
    ::close(fd);
}

Test(dir_buffer, fill_counts_the_directories_it_reads_batch_by_batch) {
    // What fill() counts as it reads (the close decision after a read and
    // looking ahead use it instead of a scan) must be what a scan finds in
    // every batch, over several fills of a small buffer: directories whose
    // names start with dots among them, links counted only when asked for,
    // and no directory beyond directories_end().
    test::TempTree tree;
    tree.build("d/.hidden/ d/..x/ d/.../ d/target");
    for (int i = 0; i < 300; ++i) {
        std::string n = std::to_string(i);
        if (i % 7 == 0) {
            tree.directory("d/sub" + n);
        } else if (i % 11 == 0) {
            tree.symlink("d/link" + n, "target");
        } else {
            tree.file("d/file-with-a-longer-name-" + n);
        }
    }
    int fd = ::open(tree.path("d").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(fd >= 0);
    DirBuffer buffer(1024);
    std::size_t fills = 0, all_directories = 0, all_links = 0;
    do {
        buffer.fill(fd);
        ++fills;
        std::size_t directories = 0, links = 0, unknown = 0, last_directory_end = 0;
        DirentCursor cursor(buffer);
        RawDirent dirent;
        while (cursor.next(dirent)) {
            directories += dirent.type == DT_DIR;
            links += dirent.type == DT_LNK;
            unknown += dirent.type == DT_UNKNOWN;
            if (dirent.type == DT_DIR) {
                last_directory_end = cursor.offset(buffer);
            }
        }
        cr_expect_eq(buffer.count_directories(SIZE_MAX, false), directories + unknown,
                     "fill %zu: directories", fills);
        cr_expect_eq(buffer.count_directories(SIZE_MAX, true), directories + unknown + links,
                     "fill %zu: directories and links", fills);
        cr_expect_eq(buffer.count_directories(1, true), std::min<std::size_t>(1, directories + unknown + links),
                     "fill %zu: counted no further than the limit", fills);
        cr_expect_eq(buffer.directories_end(), last_directory_end, "fill %zu: where the last directory ends",
                     fills);
        DirentCursor up_to_last(buffer, 0, buffer.directories_end());
        std::size_t listed = 0;
        while (up_to_last.next_directory(dirent)) {
            ++listed;
        }
        cr_expect_eq(listed, directories, "fill %zu: every directory lies before directories_end()", fills);
        all_directories += directories;
        all_links += links;
    } while (!buffer.at_end() && !buffer.error());
    cr_expect(fills > 2, "304 entries in %zu fills of 1 KiB", fills);
    // 0, 7, ..., 294 and the three dotted ones; 0, 11, ..., 297 but 0, 77, 154, 231.
    cr_expect_eq(all_directories, 43 + 3, "each directory in one batch");
    cr_expect_eq(all_links, 24, "each link in one batch");
    ::close(fd);
}

Test(dir_buffer, cursor_measures_names_of_every_length) {
    // Every name length from 1 to NAME_MAX puts the name's NUL at each
    // position of a record's last 8 bytes (the cursor finds it there, not
    // with strlen), the shortest records ending inside the header; every
    // length as a file and as a directory, which next_directory() reports
    // and passes the files by.
    test::TempTree tree;
    tree.directory("d");
    std::set<std::string> files, directories;
    for (std::size_t length = 1; length <= NAME_MAX; ++length) {
        std::string name(length, static_cast<char>('a' + length % 26));
        tree.file("d/" + name);
        std::string sub = name;
        sub[0] = 'D';
        tree.directory("d/" + sub);
        files.insert(name);
        directories.insert(sub);
    }
    int fd = ::open(tree.path("d").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(fd >= 0);
    DirBuffer buffer(1024 * 1024);
    buffer.fill(fd);
    cr_assert(buffer.at_end(), "510 entries are read to their end in one fill of 1 MiB");
    std::set<std::string> seen_files, seen_directories;
    DirentCursor cursor(buffer);
    RawDirent dirent;
    while (cursor.next(dirent)) {
        cr_expect_eq(dirent.name.size(), std::strlen(dirent.name.data()), "%s: measured %zu",
                     dirent.name.data(), dirent.name.size());
        (dirent.type == DT_DIR ? seen_directories : seen_files).insert(std::string(dirent.name));
    }
    cr_expect(seen_files == files, "every file name, each with its length");
    cr_expect(seen_directories == directories, "every directory name, each with its length");
    std::set<std::string> listed_directories;
    DirentCursor directories_only(buffer);
    while (directories_only.next_directory(dirent)) {
        cr_expect_eq(dirent.type, DT_DIR);
        cr_expect_eq(dirent.name.size(), std::strlen(dirent.name.data()));
        listed_directories.insert(std::string(dirent.name));
    }
    cr_expect(listed_directories == directories, "next_directory(): the directories, no file, no dot");
    ::close(fd);
}

namespace {

// Every name in fd's directory, filling buffer again until it is at its
// end; reads counts the getdents64 calls.
std::multiset<std::string> read_all(DirBuffer& buffer, int fd, bool end_marked, unsigned& reads) {
    std::multiset<std::string> names;
    reads = 0;
    do {
        buffer.fill(fd, end_marked);
        cr_assert_eq(buffer.error(), 0);
        reads += buffer.read_calls();
        for (const std::string& name : names_in(buffer)) {
            names.insert(name);
        }
        cr_assert(reads < 10000, "never at its end");
    } while (!buffer.at_end());
    return names;
}

} // namespace

Test(dir_buffer, a_marked_end_saves_the_read_that_finds_nothing) {
    // Where the file system marks a listing's last record, fill() with
    // end_marked stops there: one getdents64 for a small directory instead
    // of two, and a large one read in small batches still comes whole.
    // Elsewhere nothing changes.
    test::TempTree tree;
    tree.many_files("small", 40);
    tree.directory("small/sub");
    std::vector<std::string> many = tree.many_files("large", 3000, "a-longer-name-");
    bool marked = test::lists_end_marked(tree.path("small"));
    if (!marked) {
        cr_log_warn("%s does not mark the end of a listing: only the unmarked reads are checked",
                    tree.root().c_str());
    }
    for (const char* dir : {"small", "large"}) {
        for (std::size_t capacity : {DirBuffer::default_capacity, std::size_t{4096}}) {
            int plain_fd = ::open(tree.path(dir).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            int marked_fd = ::open(tree.path(dir).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            cr_assert(plain_fd >= 0 && marked_fd >= 0);
            DirBuffer plain_buffer(capacity), marked_buffer(capacity);
            unsigned plain_reads = 0, marked_reads = 0;
            std::multiset<std::string> plain = read_all(plain_buffer, plain_fd, false, plain_reads);
            std::multiset<std::string> with_mark = read_all(marked_buffer, marked_fd, true, marked_reads);
            cr_expect(with_mark == plain, "%s, %zu bytes: %zu names with the mark, %zu without", dir,
                      capacity, with_mark.size(), plain.size());
            cr_expect_eq(plain.size(), std::string(dir) == "small" ? 41u : 3000u);
            if (marked) {
                cr_expect_eq(marked_reads + 1, plain_reads, "%s, %zu bytes: %u reads marked, %u plain",
                             dir, capacity, marked_reads, plain_reads);
            } else {
                cr_expect_eq(marked_reads, plain_reads);
            }
            ::close(plain_fd);
            ::close(marked_fd);
        }
    }
    cr_expect_eq(many.size(), 3000u);
}

Test(dir_buffer, empty_directory_and_read_errors) {
    test::TempTree tree;
    tree.build("empty/ plain");
    int fd = ::open(tree.path("empty").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(fd >= 0);
    DirBuffer buffer;
    buffer.fill(fd);
    cr_expect(buffer.at_end());
    cr_expect_eq(buffer.error(), 0);
    cr_expect(names_in(buffer).empty(), "an empty directory has no entries but . and ..");
    ::close(fd);

    int file = ::open(tree.path("plain").c_str(), O_RDONLY | O_CLOEXEC);
    cr_assert(file >= 0);
    buffer.fill(file);
    cr_expect_eq(buffer.error(), ENOTDIR, "fill on a regular file: %d", buffer.error());
    ::close(file);
    buffer.fill(file);  // closed now
    cr_expect_eq(buffer.error(), EBADF, "fill on a closed descriptor: %d", buffer.error());

    DirentCursor nothing;
    RawDirent dirent;
    cr_expect(!nothing.next(dirent), "a default cursor has no entries");
}
