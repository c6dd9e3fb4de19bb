#include "round_memory.hpp"

#include <new>

namespace ioq::walk {

void RoundMemory::record_finished(std::string& key, int round) {
    key.push_back('/');
    auto below = finished_.lower_bound(std::string_view(key));
    auto end = below;
    while (end != finished_.end() && end->first.starts_with(key)) {
        ++end;
    }
    finished_.erase(below, end);
    key.pop_back();
    finished_.insert_or_assign(key, round);
}

bool RoundMemory::reported_before(std::string& key, int error, int round) {
    key.push_back('\0');
    key.append(std::to_string(error));
    auto found = failures_.find(std::string_view(key));
    if (found != failures_.end()) {
        return found->second < round;
    }
    try {
        failures_.emplace(key, round);
    } catch (const std::bad_alloc&) {
    }
    return false;
}

} // namespace ioq::walk
