#include "drivers/transport/usb_bus.h"

#include <algorithm>
#include <cstdio>

namespace eboard::drivers {

std::string emulated_device_file(std::uint16_t vendor, std::uint16_t product,
                                 const std::string& serial, std::string_view suffix) {
  char ids[16];
  std::snprintf(ids, sizeof ids, "%04x-%04x-", vendor, product);
  return ids + serial + std::string(suffix);
}

std::optional<UsbDeviceInfo> parse_emulated_device_file(const std::string& file,
                                                        std::string_view suffix) {
  constexpr std::size_t kIds = 10;  // "2d80-8001-"
  unsigned vendor = 0;
  unsigned product = 0;
  int consumed = 0;
  if (file.size() < kIds + 1 + suffix.size() ||
      std::string_view(file).substr(file.size() - suffix.size()) != suffix)
    return std::nullopt;
  if (std::sscanf(file.c_str(), "%4x-%4x-%n", &vendor, &product, &consumed) != 2 ||
      consumed != static_cast<int>(kIds))
    return std::nullopt;
  UsbDeviceInfo info;
  info.location = "emulated:" + file;
  info.vendor_id = static_cast<std::uint16_t>(vendor);
  info.product_id = static_cast<std::uint16_t>(product);
  info.serial = file.substr(kIds, file.size() - kIds - suffix.size());
  info.product = "emulated device";
  return info;
}

std::size_t hid_message_length(const std::uint8_t* bytes, std::size_t size) {
  if (size < 2) return size;
  return std::min<std::size_t>(size, std::size_t{bytes[1]} + 2);
}

std::vector<UsbEvent> UsbRescan::compare(std::vector<UsbDeviceInfo> now) {
  std::vector<UsbEvent> events;
  for (const auto& old : last_) {
    if (std::find(now.begin(), now.end(), old) == now.end())
      events.push_back({UsbChange::kLeft, old});
  }
  for (const auto& device : now) {
    if (std::find(last_.begin(), last_.end(), device) == last_.end())
      events.push_back({UsbChange::kArrived, device});
  }
  last_ = std::move(now);
  return events;
}

// HID 1.11 §6.2.2: a short item is a prefix byte (tag << 4 | type << 2 | size code) and
// 0, 1, 2 or 4 data bytes; Usage Page is the global item with tag 0 (prefix 0x05-0x07).
std::optional<std::uint16_t> report_usage_page(const std::uint8_t* descriptor, std::size_t size) {
  std::size_t i = 0;
  while (i < size) {
    const std::uint8_t prefix = descriptor[i];
    if (prefix == 0xFE) {  // long item: size in the next byte
      if (i + 1 >= size) return std::nullopt;
      i += 3 + descriptor[i + 1];
      continue;
    }
    const std::size_t data = (prefix & 3) == 3 ? 4 : (prefix & 3);
    if (i + data >= size) return std::nullopt;  // the item runs past the end
    if ((prefix & 0xFC) == 0x04) {
      std::uint32_t value = 0;
      for (std::size_t b = 0; b < data; ++b)
        value |= std::uint32_t{descriptor[i + 1 + b]} << (8 * b);
      return static_cast<std::uint16_t>(value);
    }
    i += 1 + data;
  }
  return std::nullopt;
}

}  // namespace eboard::drivers
