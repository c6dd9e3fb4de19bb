// EntryPath: the path of each entry of the directory being read.
//
// Every entry of a directory shares the directory's path and a '/'; only the
// name after them changes.  The buffer holds that prefix, set once per
// directory, and each entry's name is copied after it with a few loads and
// stores sized by the name itself:
//
//   [ d i r / s u b / | n a m e \0 ]
//     prefix (once)     per entry
//
// std::string's resize and append did the same with a capacity check, a
// libc memcpy call and the terminator's store for every entry (measured in
// 800c21e).  The room for a name is reserved with the prefix, so copying
// one never allocates.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

namespace ioq::walk {

class EntryPath {
public:
    // The directory's path, with its separator.  May throw std::bad_alloc.
    void set_prefix(std::string_view prefix);

    // The prefix followed by name and a separator: the path of a
    // subdirectory of the directory the prefix names.  May throw
    // std::bad_alloc, with the prefix unchanged.
    void extend_prefix(std::string_view name);

    // Keeps the first size bytes of the prefix (size <= prefix_size()):
    // the path of an ancestor of the directory, with its separator.
    void shorten_prefix(std::size_t size) { prefix_size_ = size; }

    // The prefix followed by name, NUL-terminated; valid until the next
    // call.  A name longer than NAME_MAX (no file system returns one) is
    // given room first, which may throw std::bad_alloc.
    std::string_view with_name(std::string_view name) {
        if (name.size() > NAME_MAX) [[unlikely]] {
            reserve(prefix_size_ + name.size());
        }
        char* to = bytes_.get() + prefix_size_;
        copy_short(to, name.data(), name.size());
        to[name.size()] = '\0';
        return {bytes_.get(), prefix_size_ + name.size()};
    }

    std::size_t prefix_size() const { return prefix_size_; }
    std::string_view prefix() const { return {bytes_.get(), prefix_size_}; }

private:
    // Room for size bytes and a NUL, the prefix kept.
    void reserve(std::size_t size);

    // memcpy for the few dozen bytes a name has, inline: two loads that
    // may overlap cover any length within a power of two, and nothing is
    // read outside [from, from + n).
    static void copy_short(char* to, const char* from, std::size_t n) {
        if (n >= 8) {
            if (n <= 16) {
                copy_words(to, from, 0);
                copy_words(to, from, n - 8);
            } else if (n <= 32) {
                copy_words(to, from, 0);
                copy_words(to, from, 8);
                copy_words(to, from, n - 16);
                copy_words(to, from, n - 8);
            } else {
                std::memcpy(to, from, n);
            }
        } else if (n >= 4) {
            std::uint32_t head;
            std::uint32_t tail;
            std::memcpy(&head, from, 4);
            std::memcpy(&tail, from + n - 4, 4);
            std::memcpy(to, &head, 4);
            std::memcpy(to + n - 4, &tail, 4);
        } else if (n > 0) {
            to[0] = from[0];
            to[n / 2] = from[n / 2];
            to[n - 1] = from[n - 1];
        }
    }
    static void copy_words(char* to, const char* from, std::size_t at) {
        std::uint64_t word;
        std::memcpy(&word, from + at, sizeof word);
        std::memcpy(to + at, &word, sizeof word);
    }

    std::unique_ptr<char[]> bytes_;
    std::size_t capacity_ = 0;  // bytes_ holds capacity_ + 1 (the NUL)
    std::size_t prefix_size_ = 0;
};

} // namespace ioq::walk
