#include "kept_listings.hpp"

#include <utility>

namespace ioq::walk {

std::size_t KeptListings::position(std::string_view key) const {
    std::size_t i = 0;
    while (i < listings_.size() && listings_[i].key != key) {
        ++i;
    }
    return i;
}

const KeptListings::Listing* KeptListings::find(std::string_view key) const {
    std::size_t i = position(key);
    return i < listings_.size() ? &listings_[i] : nullptr;
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
    std::size_t i = position(key);
    if (i == listings_.size()) {
        return -1;
    }
    int fd = listings_[i].fd;
    bytes_ -= listings_[i].records.size();
    descriptors_ -= fd >= 0;
    // Order does not matter: swap with the last instead of shifting.
    std::swap(listings_[i], listings_.back());
    listings_.pop_back();
    return fd;
}

} // namespace ioq::walk
