#include "output/output_files.hpp"

#include "system/diagnostics.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace ufind {
namespace {

void identify(int fd, dev_t& device, ino_t& inode) {
    struct stat buf;
    if (::fstat(fd, &buf) == 0) {
        device = buf.st_dev;
        inode = buf.st_ino;
    }
}

} // namespace

OutputFiles::OutputFiles() {
    for (int fd : {STDOUT_FILENO, STDERR_FILENO}) {
        File file;
        file.fd = fd;
        file.output = std::make_unique<Output>(
            fd, fd == STDOUT_FILENO ? "standard output" : "standard error");
        files_.push_back(std::move(file));
    }
}

OutputFiles::~OutputFiles() {
    for (File& file : files_) {
        file.output.reset();  // flushes
        if (file.owns_fd) {
            ::close(file.fd);
        }
    }
}

Output& OutputFiles::open(const std::string& path) {
    if (path == "/dev/stdout") {
        return *files_[0].output;
    }
    if (path == "/dev/stderr") {
        return *files_[1].output;
    }
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        int error = errno;
        report_path_error(path, error);
        throw UsageError{};
    }
    File file;
    file.fd = fd;
    file.owns_fd = true;
    identify(fd, file.device, file.inode);
    // Standard streams are not compared: a file that happens to be the
    // terminal or the pipe on stdout is still its own stream in find.
    for (std::size_t i = 2; i < files_.size(); ++i) {
        if (files_[i].device == file.device && files_[i].inode == file.inode) {
            ::close(fd);
            return *files_[i].output;
        }
    }
    file.output = std::make_unique<Output>(fd, path);
    files_.push_back(std::move(file));
    return *files_.back().output;
}

void OutputFiles::flush_all() {
    for (File& file : files_) {
        file.output->flush();
    }
}

} // namespace ufind
