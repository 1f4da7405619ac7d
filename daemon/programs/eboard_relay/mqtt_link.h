// eboard-relay's connection to the venue broker: a libmosquitto client driven by the
// relay's one Asio loop (its socket watched with a stream_descriptor, as the daemon's
// publisher does, daemon/sinks/mqtt_publisher.h), subscribed to the whole site and
// feeding every message to the gap-free fan-in (mqtt_fan_in.h), which asks the daemons
// for what is missing through publish(). A lost broker is retried after 100 ms doubling to
// 1 s (as the daemons' publishers, mqtt_publisher.h: the cap is how long a returning
// broker's events wait for the relay); nothing is lost meanwhile because the fan-in asks
// for the gap once it is back.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "drivers/reconnect.h"

struct mosquitto;
struct mosquitto_message;

namespace eboard::daemon {

class MqttLink {
 public:
  using Log = std::function<void(const std::string&)>;
  using Message = std::function<void(const std::string& topic, const std::string& payload)>;

  struct Options {
    std::string host = "127.0.0.1";
    std::uint16_t port = 1883;
    std::string user;
    std::string password;
    std::vector<std::string> filters;  // the subscriptions
  };

  static constexpr std::chrono::milliseconds kReconnectFirst{100};
  static constexpr std::chrono::milliseconds kReconnectMax{1000};
  // The delays between connection attempts after a loss, from the first.
  static drivers::Backoff reconnect_backoff() { return {kReconnectFirst, kReconnectMax}; }

  MqttLink(boost::asio::io_context& io, Options options, Message on_message, Log log);
  ~MqttLink();
  MqttLink(const MqttLink&) = delete;
  MqttLink& operator=(const MqttLink&) = delete;

  void start();
  // QoS 1, not retained; dropped when not connected (the fan-in asks again).
  void publish(const std::string& topic, const std::string& payload);
  bool connected() const { return connected_; }

 private:
  void connect();
  void lose(const std::string& reason);
  void watch_read();
  void watch_write();
  void arm_misc();
  static void on_connect_cb(mosquitto*, void* self, int rc);
  static void on_message_cb(mosquitto*, void* self, const mosquitto_message* message);

  boost::asio::io_context& io_;
  Options options_;
  Message on_message_;
  Log log_;
  mosquitto* mosq_ = nullptr;
  std::optional<boost::asio::posix::stream_descriptor> stream_;
  std::uint64_t generation_ = 0;
  boost::asio::steady_timer reconnect_timer_;
  boost::asio::steady_timer misc_timer_;
  drivers::Backoff backoff_ = reconnect_backoff();
  bool connected_ = false;
  bool reading_ = false;
  bool writing_ = false;
  bool lost_reported_ = false;
};

}  // namespace eboard::daemon
