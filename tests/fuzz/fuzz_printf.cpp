// Fuzz target: the -printf format compiler and renderer (cli/actions/printf.cpp).
//
//   input bytes --> Format::compile --> error: must say so ("error: ...")
//                        |
//                        v  (unless a width or precision is huge)
//               render against three fake files, no walk needed:
//                 a regular file deep in a tree, a starting point ("."),
//                 a symbolic link with control characters and trailing
//                 slashes in its name, timestamps before 1970
//
// Invariants checked beyond "no crash":
//   - a failed compile explains itself with find's "error: ..." message;
//   - rendering the same file twice gives the same bytes (the renderer
//     reuses scratch buffers between directives and between entries);
//   - a format that needs no metadata renders the same when metadata is
//     missing, and one that needs it renders nothing then (find prints
//     nothing for a file it cannot stat): this holds only if the stat mask
//     the compiler computes covers every directive that reads metadata;
//   - a format without '%' or '\' prints itself.
//
// Widths and precisions of five digits and more are compiled but not
// rendered: "%999999999p" asks for a gigabyte of padding, which find would
// print too, and which would only measure the allocator here.
#include "fuzz_support.hpp"

#include "actions/printf.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace {

class FakeFacts final : public ufind::FileFacts {
public:
    FakeFacts(std::string path, std::string root, int depth, unsigned mode, long long seconds,
              bool has_stat, const char* link)
        : path_(std::move(path)), root_(std::move(root)), depth_(depth), has_stat_(has_stat),
          link_(link) {
        std::memset(&buf_, 0, sizeof buf_);
        buf_.stx_mask = STATX_BASIC_STATS | STATX_BTIME;
        buf_.stx_mode = static_cast<std::uint16_t>(mode);
        buf_.stx_size = 12345;
        buf_.stx_blocks = 24;
        buf_.stx_nlink = 2;
        buf_.stx_ino = 4242;
        buf_.stx_uid = 0;
        buf_.stx_gid = 0;
        buf_.stx_dev_major = 8;
        buf_.stx_dev_minor = 1;
        for (struct statx_timestamp* ts :
             {&buf_.stx_atime, &buf_.stx_btime, &buf_.stx_ctime, &buf_.stx_mtime}) {
            ts->tv_sec = seconds;
            ts->tv_nsec = 987654321;
            seconds += 3661;
        }
    }
    std::string_view path() const override { return path_; }
    std::string_view root() const override { return root_; }
    int depth() const override { return depth_; }
    const struct statx* stat() override { return has_stat_ ? &buf_ : nullptr; }
    // As the walk's: always known (it stats what the listing left
    // DT_UNKNOWN), so %y needs no metadata.
    char listed_type() override {
        return S_ISDIR(buf_.stx_mode) ? 'd' : S_ISLNK(buf_.stx_mode) ? 'l' : 'f';
    }
    char followed_type() override { return link_ ? 'N' : 'f'; }
    bool link_target(std::string& out) override {
        out = link_ ? link_ : "";
        return link_ != nullptr;
    }
    void set_has_stat(bool has_stat) { has_stat_ = has_stat; }

private:
    std::string path_, root_;
    int depth_;
    bool has_stat_;
    const char* link_;
    struct statx buf_;
};

void check(bool condition, const char* what) {
    if (!condition) {
        std::fprintf(stderr, "fuzz_printf: invariant broken: %s\n", what);
        std::abort();
    }
}

bool has_long_number(std::string_view text) {
    int run = 0;
    for (char c : text) {
        run = c >= '0' && c <= '9' ? run + 1 : 0;
        if (run >= 5) {
            return true;
        }
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    ufind_fuzz::add_default_flags(argc, argv, false);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::string error;
    std::optional<ufind::Format> format = ufind::Format::compile(text, error);
    if (!format) {
        check(error.starts_with("error: "), "a failed compile says why");
        return 0;
    }
    if (has_long_number(text)) {
        return 0;
    }
    static FakeFacts files[] = {
        {"./dir/sub/file.txt", ".", 3, S_IFREG | 04755, 981173106, true, nullptr},
        {".", ".", 0, S_IFDIR | 01777, 0, true, nullptr},
        {"/tmp/x//li\x1b[1mnk\n//", "/tmp/x/", 1, S_IFLNK | 0777, -4000000000LL, true,
         "../t\xe9rget"},
    };
    std::string out, again, without_stat;
    for (FakeFacts& file : files) {
        out.clear();
        again.clear();
        without_stat.clear();
        format->render(file, out);
        format->render(file, again);
        check(out == again, "rendering is repeatable");
        // For a terminal, names lose their control characters (the third
        // file has some); covered, not checked.
        again.clear();
        format->render(file, again, ufind::NameQuoting::printable);
        file.set_has_stat(false);
        format->render(file, without_stat);
        file.set_has_stat(true);
        if (format->needs_stat()) {
            check(without_stat.empty(), "nothing is printed for a file without metadata");
        } else {
            check(without_stat == out, "the stat mask covers every directive reading metadata");
        }
    }
    if (text.find_first_of("%\\") == std::string_view::npos) {
        check(out == text, "a format without directives or escapes prints itself");
    }
    return 0;
}
