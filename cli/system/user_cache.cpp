#include "system/user_cache.hpp"

#include <grp.h>
#include <pwd.h>

#include <optional>
#include <unordered_map>

namespace ufind {
namespace {

template <typename Id, typename Lookup>
const std::string* cached_name(std::unordered_map<Id, std::optional<std::string>>& cache, Id id,
                               Lookup lookup) {
    auto found = cache.find(id);
    if (found == cache.end()) {
        found = cache.emplace(id, lookup(id)).first;
    }
    return found->second ? &*found->second : nullptr;
}

} // namespace

const std::string* user_name(uid_t uid) {
    static std::unordered_map<uid_t, std::optional<std::string>> cache;
    return cached_name(cache, uid, [](uid_t id) -> std::optional<std::string> {
        const struct passwd* entry = ::getpwuid(id);
        return entry ? std::optional<std::string>(entry->pw_name) : std::nullopt;
    });
}

const std::string* group_name(gid_t gid) {
    static std::unordered_map<gid_t, std::optional<std::string>> cache;
    return cached_name(cache, gid, [](gid_t id) -> std::optional<std::string> {
        const struct group* entry = ::getgrgid(id);
        return entry ? std::optional<std::string>(entry->gr_name) : std::nullopt;
    });
}

} // namespace ufind
