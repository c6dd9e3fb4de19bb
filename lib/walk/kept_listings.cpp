#include "kept_listings.hpp"

#include <algorithm>
#include <utility>

namespace ioq::walk {

const KeptListings::Listing* KeptListings::find(std::string_view key) const {
    auto found = std::find_if(listings_.begin(), listings_.end(),
                              [key](const Listing& listing) { return listing.key == key; });
    return found == listings_.end() ? nullptr : &*found;
}

void KeptListings::add(std::string_view key, const std::byte* records, std::size_t size,
                       int fd) {
    // Built whole before it is linked in: a throw leaves the store as it was.
    Listing listing{std::string(key), std::vector<std::byte>(records, records + size), fd};
    listings_.push_back(std::move(listing));
    bytes_ += size;
    descriptors_ += fd >= 0;
}

int KeptListings::take(std::string_view key) noexcept {
    auto found = std::find_if(listings_.begin(), listings_.end(),
                              [key](const Listing& listing) { return listing.key == key; });
    if (found == listings_.end()) {
        return -1;
    }
    int fd = found->fd;
    bytes_ -= found->records.size();
    descriptors_ -= fd >= 0;
    // Order does not matter: swap with the last instead of shifting.
    std::swap(*found, listings_.back());
    listings_.pop_back();
    return fd;
}

} // namespace ioq::walk
