#include "drivers/transport/serial_ports.h"

#include <libserialport.h>

#include <algorithm>
#include <cstdio>

#include "drivers/dgt/dgt_protocol.h"
#include "drivers/factory.h"

namespace eboard::drivers {
namespace {

std::string text_or_empty(const char* text) { return text != nullptr ? text : ""; }

PortInfo describe_sp_port(sp_port* port) {
  PortInfo info;
  info.path = text_or_empty(sp_get_port_name(port));
  info.description = text_or_empty(sp_get_port_description(port));
  switch (sp_get_port_transport(port)) {
    case SP_TRANSPORT_NATIVE: info.kind = PortKind::kNative; break;
    case SP_TRANSPORT_USB: info.kind = PortKind::kUsb; break;
    case SP_TRANSPORT_BLUETOOTH: info.kind = PortKind::kBluetooth; break;
  }
  if (info.kind == PortKind::kUsb) {
    int vid = 0;
    int pid = 0;
    if (sp_get_port_usb_vid_pid(port, &vid, &pid) == SP_OK) {
      info.usb_vendor_id = static_cast<std::uint16_t>(vid);
      info.usb_product_id = static_cast<std::uint16_t>(pid);
    }
    info.usb_serial = text_or_empty(sp_get_port_usb_serial(port));
    info.usb_product = text_or_empty(sp_get_port_usb_product(port));
  }
  return info;
}

class SystemSerialPorts final : public SerialPorts {
 public:
  std::string name() const override { return "libserialport"; }
  std::vector<PortInfo> ports() override { return list_serial_ports(); }
  int hotplug_fd() const override { return -1; }
  std::vector<UsbEvent> take_events() override { return {}; }
};

bool is_dgt_usb_id(const PortInfo& port) {
  return port.usb_vendor_id == dgt::kUsbVendorId && port.usb_product_id == dgt::kUsbProductId;
}

}  // namespace

std::vector<PortInfo> list_serial_ports() {
  std::vector<PortInfo> ports;
  sp_port** list = nullptr;
  if (sp_list_ports(&list) != SP_OK) return ports;
  for (int i = 0; list[i] != nullptr; ++i) ports.push_back(describe_sp_port(list[i]));
  sp_free_port_list(list);
  std::sort(ports.begin(), ports.end(),
            [](const PortInfo& a, const PortInfo& b) { return a.path < b.path; });
  return ports;
}

std::unique_ptr<SerialPorts> make_system_serial_ports() {
  return std::make_unique<SystemSerialPorts>();
}

std::string emulated_serial_file(std::uint16_t vendor, std::uint16_t product,
                                 const std::string& serial) {
  return emulated_device_file(vendor, product, serial, kTtySuffix);
}

std::vector<PortInfo> dgt_candidates(const std::vector<PortInfo>& ports) {
  std::vector<PortInfo> candidates;
  for (const PortInfo& port : ports) {
    if (is_dgt_usb_id(port)) candidates.push_back(port);
  }
  for (const PortInfo& port : ports) {
    const bool other = (port.kind == PortKind::kUsb && !is_dgt_usb_id(port)) ||
                       port.kind == PortKind::kBluetooth ||
                       port.path.find("rfcomm") != std::string::npos;
    if (other) candidates.push_back(port);
  }
  return candidates;
}

std::vector<PortInfo> serial_candidates(const std::vector<PortInfo>& ports,
                                        const std::vector<UsbMatch>& ids, bool probe_others) {
  const auto known = [&ids](const PortInfo& port) {
    if (!port.usb_vendor_id || !port.usb_product_id) return false;
    for (const UsbMatch& id : ids) {
      if (id.matches(*port.usb_vendor_id, *port.usb_product_id)) return true;
    }
    return false;
  };
  std::vector<PortInfo> candidates;
  for (const PortInfo& port : ports) {
    if (known(port)) candidates.push_back(port);
  }
  if (!probe_others) return candidates;
  for (const PortInfo& port : ports) {
    const bool other = (port.kind == PortKind::kUsb && !known(port)) ||
                       port.kind == PortKind::kBluetooth ||
                       port.path.find("rfcomm") != std::string::npos;
    if (other) candidates.push_back(port);
  }
  return candidates;
}

std::string describe_port(const PortInfo& port) {
  std::string text = port.path;
  if (port.usb_vendor_id && port.usb_product_id) {
    char id[16];
    std::snprintf(id, sizeof id, " %04x:%04x", *port.usb_vendor_id, *port.usb_product_id);
    text += id;
  }
  if (!port.usb_serial.empty()) text += " serial " + port.usb_serial;
  if (!port.description.empty()) text += " (" + port.description + ")";
  return text;
}

}  // namespace eboard::drivers
