// The real USB bus through libusb-1.0 (usb_bus.h).
//
// libusb works through several descriptors of its own (an event fd, a timer fd, one per
// open device). To give the event loop the single fd every Transport has, each libusb
// context here keeps them in an epoll set (libusb_set_pollfd_notifiers follows its
// additions and removals), and that epoll fd is the one to watch; when it is readable,
// libusb_handle_events_timeout_completed with a zero timeout runs the completions without
// blocking. The bus (enumeration, hot-plug) and each opened device have a context each,
// so every fd belongs to exactly one watcher.
//
// A HID device is opened on its vendor interface: the interface of class HID whose report
// descriptor starts its usage pages at 0xFF00 (docs/protocols.md §6; the other one is 0x0001).
// Input reports arrive on the interrupt IN endpoint, always in flight; output reports
// leave on the interrupt OUT endpoint, or as SET_REPORT control transfers without one,
// both submitted asynchronously. Serial numbers are read from sysfs
// (/sys/bus/usb/devices/B-P/serial), which costs no USB traffic, so enumeration never
// blocks the loop. Not tried on a real Chessnut (docs/protocols.md §11.10).
#include <libusb-1.0/libusb.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>

#include "drivers/transport/usb_bus.h"

namespace eboard::drivers {
namespace {

constexpr std::uint16_t kVendorUsagePage = 0xFF00;
constexpr int kHidClass = 3;

// One libusb context and the epoll set of its fds.
class Context {
 public:
  static std::unique_ptr<Context> create(std::string& error) {
    auto context = std::unique_ptr<Context>(new Context());
    if (const int rc = libusb_init(&context->ctx_); rc != 0) {
      error = std::string("libusb: ") + libusb_strerror(rc);
      context->ctx_ = nullptr;
      return nullptr;
    }
    context->epoll_ = ::epoll_create1(EPOLL_CLOEXEC);
    if (const libusb_pollfd** fds = libusb_get_pollfds(context->ctx_)) {
      for (int i = 0; fds[i] != nullptr; ++i) context->add(fds[i]->fd, fds[i]->events);
      libusb_free_pollfds(fds);
    }
    libusb_set_pollfd_notifiers(context->ctx_, &Context::added, &Context::removed, context.get());
    return context;
  }
  ~Context() {
    if (ctx_ != nullptr) {
      libusb_set_pollfd_notifiers(ctx_, nullptr, nullptr, nullptr);
      libusb_exit(ctx_);
    }
    if (epoll_ >= 0) ::close(epoll_);
  }
  libusb_context* get() const { return ctx_; }
  int fd() const { return epoll_; }
  void run_completions() {
    timeval zero{0, 0};
    libusb_handle_events_timeout_completed(ctx_, &zero, nullptr);
  }

 private:
  Context() = default;
  void add(int fd, short events) {
    epoll_event e{};
    e.events = static_cast<std::uint32_t>(events);
    e.data.fd = fd;
    ::epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &e);
  }
  static void added(int fd, short events, void* self) {
    static_cast<Context*>(self)->add(fd, events);
  }
  static void removed(int fd, void* self) {
    ::epoll_ctl(static_cast<Context*>(self)->epoll_, EPOLL_CTL_DEL, fd, nullptr);
  }
  libusb_context* ctx_ = nullptr;
  int epoll_ = -1;
};

std::string location_of(libusb_device* device) {
  std::uint8_t ports[8];
  const int n = libusb_get_port_numbers(device, ports, sizeof ports);
  std::string location = std::to_string(libusb_get_bus_number(device)) + "-";
  for (int i = 0; i < n; ++i) location += (i ? "." : "") + std::to_string(ports[i]);
  return location;
}

std::string sysfs_text(const std::string& location, const char* what) {
  std::ifstream in("/sys/bus/usb/devices/" + location + "/" + what);
  std::string text;
  std::getline(in, text);
  return text;
}

UsbDeviceInfo describe(libusb_device* device) {
  libusb_device_descriptor descriptor{};
  libusb_get_device_descriptor(device, &descriptor);
  UsbDeviceInfo info;
  const std::string location = location_of(device);
  info.location = "usb:" + location;
  info.vendor_id = descriptor.idVendor;
  info.product_id = descriptor.idProduct;
  info.serial = sysfs_text(location, "serial");
  info.product = sysfs_text(location, "product");
  return info;
}

class LibusbHidTransport final : public Transport {
 public:
  LibusbHidTransport(std::unique_ptr<Context> context, libusb_device_handle* handle, int interface,
                     std::uint8_t in_endpoint, std::optional<std::uint8_t> out_endpoint,
                     std::string name)
      : context_(std::move(context)),
        handle_(handle),
        interface_(interface),
        in_endpoint_(in_endpoint),
        out_endpoint_(out_endpoint),
        name_(std::move(name)) {}
  ~LibusbHidTransport() override {
    if (in_ != nullptr) {
      libusb_cancel_transfer(in_);
      while (in_flight_) context_->run_completions();
      libusb_free_transfer(in_);
    }
    libusb_release_interface(handle_, interface_);
    libusb_close(handle_);
  }

  bool start() {
    in_ = libusb_alloc_transfer(0);
    libusb_fill_interrupt_transfer(in_, handle_, in_endpoint_, in_buffer_, sizeof in_buffer_,
                                   &LibusbHidTransport::received, this, 0);
    in_flight_ = libusb_submit_transfer(in_) == 0;
    return in_flight_;
  }

  int fd() const override { return context_->fd(); }
  const std::string& name() const override { return name_; }
  std::string opened_with() const override { return "libusb"; }

  std::variant<std::size_t, IoError> read_some(std::span<std::uint8_t> buffer) override {
    context_->run_completions();
    if (!reports_.empty()) {
      const auto& report = reports_.front();
      const std::size_t n = std::min(buffer.size(), report.size());
      std::memcpy(buffer.data(), report.data(), n);
      reports_.pop_front();
      return n;
    }
    if (gone_) return IoError{name_ + ": device unplugged"};
    return std::size_t{0};
  }

  std::variant<std::size_t, IoError> write_some(std::span<const std::uint8_t> bytes) override {
    if (gone_) return IoError{name_ + ": device unplugged"};
    const std::size_t length = hid_message_length(bytes.data(), bytes.size());
    libusb_transfer* transfer = libusb_alloc_transfer(0);
    const int setup = out_endpoint_ ? 0 : LIBUSB_CONTROL_SETUP_SIZE;
    auto* data = new std::uint8_t[setup + length];
    std::memcpy(data + setup, bytes.data(), length);
    if (out_endpoint_) {
      libusb_fill_interrupt_transfer(transfer, handle_, *out_endpoint_, data,
                                     static_cast<int>(length), &LibusbHidTransport::sent, nullptr,
                                     1000);
    } else {
      // SET_REPORT (HID 1.11 §7.2.2): output report, id = the message's first byte.
      libusb_fill_control_setup(data, 0x21, 0x09, static_cast<std::uint16_t>(0x0200 | bytes[0]),
                                static_cast<std::uint16_t>(interface_),
                                static_cast<std::uint16_t>(length));
      libusb_fill_control_transfer(transfer, handle_, data, &LibusbHidTransport::sent, nullptr,
                                   1000);
    }
    transfer->flags |= LIBUSB_TRANSFER_FREE_BUFFER | LIBUSB_TRANSFER_FREE_TRANSFER;
    if (libusb_submit_transfer(transfer) != 0) {
      libusb_free_transfer(transfer);
      return IoError{name_ + ": write failed"};
    }
    return length;
  }

 private:
  static void sent(libusb_transfer*) {}
  static void received(libusb_transfer* transfer) {
    auto* self = static_cast<LibusbHidTransport*>(transfer->user_data);
    self->in_flight_ = false;
    if (transfer->status == LIBUSB_TRANSFER_COMPLETED) {
      const std::size_t n =
          hid_message_length(transfer->buffer, static_cast<std::size_t>(transfer->actual_length));
      self->reports_.emplace_back(transfer->buffer, transfer->buffer + n);
    } else if (transfer->status == LIBUSB_TRANSFER_NO_DEVICE ||
               transfer->status == LIBUSB_TRANSFER_ERROR) {
      self->gone_ = true;
      return;
    } else if (transfer->status == LIBUSB_TRANSFER_CANCELLED) {
      return;
    }
    self->in_flight_ = libusb_submit_transfer(transfer) == 0;
    if (!self->in_flight_) self->gone_ = true;
  }

  std::unique_ptr<Context> context_;
  libusb_device_handle* handle_;
  int interface_;
  std::uint8_t in_endpoint_;
  std::optional<std::uint8_t> out_endpoint_;
  std::string name_;
  libusb_transfer* in_ = nullptr;
  bool in_flight_ = false;
  bool gone_ = false;
  std::uint8_t in_buffer_[64];
  std::deque<std::vector<std::uint8_t>> reports_;
};

struct HidInterface {
  int number = -1;
  std::uint8_t in = 0;
  std::optional<std::uint8_t> out;
};

// The vendor HID interface of an open device (see the top of the file).
std::optional<HidInterface> vendor_interface(libusb_device* device, libusb_device_handle* handle) {
  libusb_config_descriptor* config = nullptr;
  if (libusb_get_active_config_descriptor(device, &config) != 0) return std::nullopt;
  std::optional<HidInterface> found;
  for (int i = 0; i < config->bNumInterfaces && !found; ++i) {
    const libusb_interface_descriptor& alt = config->interface[i].altsetting[0];
    if (alt.bInterfaceClass != kHidClass) continue;
    std::uint8_t report[256];
    const int n = libusb_control_transfer(handle, 0x81, LIBUSB_REQUEST_GET_DESCRIPTOR, 0x2200,
                                          alt.bInterfaceNumber, report, sizeof report, 500);
    const auto page = n > 0 ? report_usage_page(report, static_cast<std::size_t>(n)) : std::nullopt;
    if (page != kVendorUsagePage) continue;
    HidInterface hid;
    hid.number = alt.bInterfaceNumber;
    for (int e = 0; e < alt.bNumEndpoints; ++e) {
      const auto& endpoint = alt.endpoint[e];
      if ((endpoint.bmAttributes & 3) != LIBUSB_TRANSFER_TYPE_INTERRUPT) continue;
      if (endpoint.bEndpointAddress & LIBUSB_ENDPOINT_IN) {
        hid.in = endpoint.bEndpointAddress;
      } else {
        hid.out = endpoint.bEndpointAddress;
      }
    }
    if (hid.in != 0) found = hid;
  }
  libusb_free_config_descriptor(config);
  return found;
}

class LibusbBus final : public UsbBus {
 public:
  explicit LibusbBus(std::unique_ptr<Context> context) : context_(std::move(context)) {
    if (libusb_has_capability(LIBUSB_CAP_HAS_HOTPLUG)) {
      const int rc = libusb_hotplug_register_callback(
          context_->get(),
          static_cast<libusb_hotplug_event>(LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED |
                                            LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT),
          LIBUSB_HOTPLUG_NO_FLAGS, LIBUSB_HOTPLUG_MATCH_ANY, LIBUSB_HOTPLUG_MATCH_ANY,
          LIBUSB_HOTPLUG_MATCH_ANY, &LibusbBus::hotplug, this, &callback_);
      hotplug_ = rc == LIBUSB_SUCCESS;
    }
    for (const auto& device : devices()) known_[device.location] = device;
  }
  ~LibusbBus() override {
    if (hotplug_) libusb_hotplug_deregister_callback(context_->get(), callback_);
  }

  std::string name() const override { return "libusb"; }

  std::vector<UsbDeviceInfo> devices() override {
    std::vector<UsbDeviceInfo> found;
    libusb_device** list = nullptr;
    const ssize_t n = libusb_get_device_list(context_->get(), &list);
    for (ssize_t i = 0; i < n; ++i) found.push_back(describe(list[i]));
    if (list != nullptr) libusb_free_device_list(list, 1);
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.location < b.location; });
    return found;
  }

  std::variant<TransportPtr, IoError> open_hid(const UsbDeviceInfo& wanted) override {
    std::string error;
    auto context = Context::create(error);
    if (!context) return IoError{error};
    libusb_device** list = nullptr;
    const ssize_t n = libusb_get_device_list(context->get(), &list);
    libusb_device* device = nullptr;
    for (ssize_t i = 0; i < n && device == nullptr; ++i) {
      if ("usb:" + location_of(list[i]) == wanted.location) device = libusb_ref_device(list[i]);
    }
    if (list != nullptr) libusb_free_device_list(list, 1);
    if (device == nullptr) return IoError{wanted.location + ": no such device"};
    libusb_device_handle* handle = nullptr;
    const int rc = libusb_open(device, &handle);
    if (rc != 0) {
      libusb_unref_device(device);
      return IoError{wanted.location + ": cannot open: " + libusb_strerror(rc)};
    }
    libusb_set_auto_detach_kernel_driver(handle, 1);
    const auto hid = vendor_interface(device, handle);
    libusb_unref_device(device);
    if (!hid || libusb_claim_interface(handle, hid->number) != 0) {
      libusb_close(handle);
      return IoError{wanted.location + ": no vendor HID interface (usage page 0xFF00) to claim"};
    }
    auto transport = std::make_unique<LibusbHidTransport>(std::move(context), handle, hid->number,
                                                          hid->in, hid->out, wanted.location);
    if (!transport->start()) return IoError{wanted.location + ": cannot start reading"};
    return TransportPtr(std::move(transport));
  }

  int hotplug_fd() const override { return hotplug_ ? context_->fd() : -1; }

  std::vector<UsbEvent> take_events() override {
    context_->run_completions();
    std::vector<UsbEvent> events;
    for (auto& [arrived, device] : pending_) {
      UsbDeviceInfo info;
      if (arrived) {
        info = describe(device);
        known_[info.location] = info;
      } else {
        const std::string location = "usb:" + location_of(device);
        const auto it = known_.find(location);
        if (it != known_.end()) {
          info = it->second;
        } else {
          info.location = location;
        }
        known_.erase(location);
      }
      libusb_unref_device(device);
      events.push_back({arrived ? UsbChange::kArrived : UsbChange::kLeft, info});
    }
    pending_.clear();
    return events;
  }

 private:
  // libusb's hot-plug callback: no libusb call that does I/O may run here, so the device
  // is kept and described in take_events().
  static int hotplug(libusb_context*, libusb_device* device, libusb_hotplug_event event,
                     void* self) {
    auto* bus = static_cast<LibusbBus*>(self);
    bus->pending_.emplace_back(event == LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED,
                               libusb_ref_device(device));
    return 0;
  }

  std::unique_ptr<Context> context_;
  bool hotplug_ = false;
  libusb_hotplug_callback_handle callback_ = 0;
  std::vector<std::pair<bool, libusb_device*>> pending_;
  std::map<std::string, UsbDeviceInfo> known_;
};

}  // namespace

std::unique_ptr<UsbBus> make_libusb_bus(std::string& error) {
  auto context = Context::create(error);
  if (!context) return nullptr;
  return std::make_unique<LibusbBus>(std::move(context));
}

}  // namespace eboard::drivers
