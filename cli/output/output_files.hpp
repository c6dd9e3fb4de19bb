// OutputFiles: every destination results are written to, standard output and
// the files of -fprint, -fprint0, -fprintf and -fls.
//
//   parse: -fprint out.txt ---open("out.txt")---> Output& (buffered, shared)
//   walk:  primaries write into their Output&
//   exit:  flush_all(), then the descriptors close
//
// Files are opened (created, truncated) once, while parsing, as find does: a
// bad path fails before anything is walked.  Two primaries naming the same
// file, by any path, share one Output (found by device and inode), so their
// lines interleave in walk order instead of overwriting each other.
// "/dev/stdout" and "/dev/stderr" are the process's own streams, as in find.
#pragma once

#include "output/output.hpp"

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

namespace ufind {

class OutputFiles {
public:
    OutputFiles();
    ~OutputFiles();
    OutputFiles(const OutputFiles&) = delete;
    OutputFiles& operator=(const OutputFiles&) = delete;

    Output& standard() { return *files_.front().output; }
    // The Output writing to path; reports find's error and throws UsageError
    // when the file cannot be opened.
    Output& open(const std::string& path);
    // Writes out every buffer: before a child process runs, and at exit.
    void flush_all();

private:
    struct File {
        dev_t device = 0;
        ino_t inode = 0;
        int fd = -1;
        bool owns_fd = false;
        std::unique_ptr<Output> output;
    };
    std::vector<File> files_;  // [0] standard output, [1] standard error
};

} // namespace ufind
