#include <cstdint>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>
#include <iostream>

namespace cache {

template <typename Key, typename Value>
class LruCache {
public:
    explicit LruCache(std::size_t capacity) : capacity_(capacity) {}

    std::optional<Value> get(const Key& key) {
        auto it = index_.find(key);
        if (it == index_.end()) {
            ++misses_;
            return std::nullopt;
        }
        // Move the entry to the front: it is now the most recently used.
        entries_.splice(entries_.begin(), entries_, it->second);
        ++hits_;
        return it->second->second;
    }

    void put(const Key& key, Value value) {
        if (auto it = index_.find(key); it != index_.end()) {
            it->second->second = std::move(value);
            entries_.splice(entries_.begin(), entries_, it->second);
            return;
        }
        if (entries_.size() == capacity_) {
            index_.erase(entries_.back().first);
            entries_.pop_back();
        }
        entries_.emplace_front(key, std::move(value));
        index_[key] = entries_.begin();
    }

    [[nodiscard]] double hit_rate() const noexcept {
        const auto total = hits_ + misses_;
        return total == 0 ? 0.0 : static_cast<double>(hits_) / total;
    }

private:
    using Entry = std::pair<Key, Value>;
    std::size_t capacity_;
    std::list<Entry> entries_;
    std::unordered_map<Key, typename std::list<Entry>::iterator> index_;
    std::uint64_t hits_ = 0;
    std::uint64_t misses_ = 0;
};

}  // namespace cache

enum class Level { Debug, Info, Warning };

static const char* to_string(Level level) {
    switch (level) {
        case Level::Debug: return "debug";
        case Level::Info: return "info";
        default: return "warning";
    }
}

int main() {
    cache::LruCache<std::string, int> lru(2);
    lru.put("alpha", 1);
    lru.put("beta", 2);
    if (auto value = lru.get("alpha")) {
        std::cout << "alpha = " << *value << '\n';
    }
    lru.put("gamma", 3);
    std::cout << "beta cached: " << std::boolalpha << lru.get("beta").has_value() << "\n";
    std::cout << to_string(Level::Info) << " hit rate " << lru.hit_rate() * 100 << "%\n";
    const auto* raw = R"(C:\temp\cache.bin)";
    std::cout << raw << std::endl;
    return 0;
}
