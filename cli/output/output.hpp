// Output: buffered writing of results to a descriptor.
//
// Results go out in writes of up to 64 KiB instead of a write per line: on a
// walk printing 100,000 paths that is a handful of system calls instead of
// 100,000.  The buffer is flushed when full, at exit, and before anything
// else could write to the same descriptor (a child process of -exec, later).
//
// A failed write (full disk, closed descriptor) is reported once, in find's
// words ("‘/dev/full’: No space left on device"; standard output's failure
// also ends in "write error", as find's exit says it), and the exit status
// says so.  A closed pipe normally ends the process with SIGPIPE
// before the write returns, which is what find does and what `| head` wants.
#pragma once

#include <cstddef>
#include <string_view>
#include <memory>
#include <string>

namespace ufind {

class Output {
public:
    // name: what messages call the stream, "standard output" or a path.
    Output(int fd, std::string name, std::size_t capacity = 64 * 1024);
    ~Output();
    Output(const Output&) = delete;
    Output& operator=(const Output&) = delete;

    void write(std::string_view text) {
        if (text.size() <= room_ - used_) {
            text.copy(buffer_.get() + used_, text.size());
            used_ += text.size();
        } else {
            write_slow(text);
        }
    }
    void put(char c) {
        if (used_ == room_) {
            make_room();
        }
        buffer_[used_++] = c;
    }

    // What messages call the stream.
    const std::string& name() const { return name_; }
    // Whether the descriptor is a terminal (names are then escaped).
    bool terminal() const { return terminal_; }
    // Called before each write to the descriptor: -status erases its line
    // from a terminal shared with the output, so paths never land on it.
    void set_before_write(void (*hook)(void*), void* argument) {
        before_write_ = hook;
        before_write_argument_ = argument;
    }

    // Writes out everything buffered; false if writing failed (now or before).
    bool flush();

private:
    void write_slow(std::string_view text);
    void make_room();
    bool write_all(const char* data, std::size_t size);

    int fd_;
    std::string name_;
    std::size_t capacity_;
    // Allocated, not zeroed, at the first write: standard error's Output
    // and quiet runs never touch it (zeroing two 64 KiB buffers was a
    // quarter of the instructions of a run on an empty directory).
    std::unique_ptr<char[]> buffer_;
    std::size_t room_ = 0;  // capacity_ once buffer_ exists
    std::size_t used_ = 0;
    bool failed_ = false;
    bool terminal_ = false;
    void (*before_write_)(void*) = nullptr;
    void* before_write_argument_ = nullptr;
};

} // namespace ufind
