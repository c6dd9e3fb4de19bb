#include "sorted_dirents.hpp"

#include <algorithm>
#include <string_view>

namespace ioq::walk {

void SortedDirents::clear() {
    names_.clear();
    records_.clear();
    next_ = 0;
}

void SortedDirents::add(const DirBuffer& buffer) {
    DirentCursor cursor(buffer);
    RawDirent dirent;
    while (cursor.next(dirent)) {
        records_.push_back({names_.size(), static_cast<std::uint32_t>(dirent.name.size()),
                            dirent.type, dirent.inode});
        names_.insert(names_.end(), dirent.name.begin(), dirent.name.end());
        names_.push_back('\0');
    }
}

void SortedDirents::sort() {
    const char* names = names_.data();
    std::sort(records_.begin(), records_.end(), [names](const Record& a, const Record& b) {
        return std::string_view(names + a.offset, a.length) <
               std::string_view(names + b.offset, b.length);
    });
}

bool SortedDirents::next(RawDirent& out) {
    if (next_ == records_.size()) {
        return false;
    }
    const Record& record = records_[next_++];
    out.inode = record.inode;
    out.type = record.type;
    out.name = std::string_view(names_.data() + record.offset, record.length);
    return true;
}

} // namespace ioq::walk
