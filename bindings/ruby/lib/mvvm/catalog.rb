# frozen_string_literal: true

module Mvvm
  # Checks a Ruby argument the C constructor takes as an integer.
  def self.integer_argument(value, what)
    raise TypeError, "#{what} must be an Integer, not #{value.class}" unless value.is_a?(Integer)

    value
  end

  # The handle of a model argument (an Mvvm::Base), for constructors over a model.
  def self.model_handle(model, what)
    raise TypeError, "#{what} must be an Mvvm model, not #{model.class}" unless model.is_a?(Base)

    model.handle
  end

  # --- the timer --------------------------------------------------------------------------------

  # Counts down `full_count` seconds, ticking once a second while running; at 0 it stops and
  # resets (count 0).
  class CountDownTimer < Base
    c_class "count_down_timer"
    property :full_count, :int
    property :count, :int
    property :remaining_time, :int
    property :is_doing, :bool
    command :start
    command :pause
    command :stop
    command :reset

    def initialize(loop, full_count)
      construct(:mvvm_count_down_timer_new, loop, Mvvm.integer_argument(full_count, "full_count"))
    end
  end

  # The timer screen: raises is_show_alert when the timer runs out; the view sets it false.
  class TimerViewModel < Base
    c_class "timer_view_model"
    property :is_show_alert, :bool, :rw
    child :display, "display_view_model"
    child :player, "player_view_model"

    attr_reader :timer

    def initialize(loop, timer)
      construct(:mvvm_timer_view_model_new, loop, Mvvm.model_handle(timer, "timer"))
      @timer = timer
    end
  end

  # TimerViewModel#display.
  class DisplayViewModel < Base
    c_class "display_view_model"
    property :remaining_time, :int
  end

  # TimerViewModel#player: taps "start", "pause", "stop", throttled to one a second.
  class PlayerViewModel < Base
    c_class "player_view_model"
    property :is_stop_enabled, :bool
    property :is_play_timer, :bool
    command :tapped, :string
  end

  # --- the stop watch ---------------------------------------------------------------------------

  # Milliseconds on the loop's clock, published every 10 ms while running; state is
  # "startable", "stoppable" or "resumable".
  class StopWatch < Base
    c_class "stop_watch"
    property :time_ms, :int
    property :state, :string
    command :start
    command :stop
    command :resume
    command :clear

    def initialize(loop)
      construct(:mvvm_stop_watch_new, loop)
    end
  end

  # The stop watch screen: time "HH:MM:SS.cc", a main action (Start / Stop / Resume) and Clear.
  class StopWatchViewModel < Base
    c_class "stop_watch_view_model"
    property :time, :string
    property :main_action_title, :string
    property :clear_action_title, :string
    property :main_action_enabled, :bool
    property :clear_action_enabled, :bool
    command :main_action
    command :clear_action

    def initialize(loop)
      construct(:mvvm_stop_watch_view_model_new, loop)
    end
  end

  # --- forms ------------------------------------------------------------------------------------

  # Echoes its input: label is the input, message "Your input is '<input>'!".
  class InputEchoViewModel < Base
    c_class "input_echo_view_model"
    property :input, :string, :rw
    property :label, :string
    property :message, :string

    def initialize(loop)
      construct(:mvvm_input_echo_view_model_new, loop)
    end
  end

  # Sign-up: enabled when user_id has 6 or more characters, password 8 or more (grapheme
  # clusters), confirm_password equals password, and agreed. With the built-in service,
  # sign_up_tapped while enabled presents the completion alert.
  class SignUpViewModel < Base
    c_class "sign_up_view_model"
    property :user_id, :string, :rw
    property :password, :string, :rw
    property :confirm_password, :string, :rw
    property :agreed, :bool, :rw
    property :is_completion_alert_presented, :bool, :rw
    property :is_sign_up_enabled, :bool
    command :sign_up_tapped

    def initialize(loop)
      construct(:mvvm_sign_up_view_model_new, loop)
    end
  end

  # Welcome: view_did_load asks the built-in API, which answers "Welcome!" on the loop's next
  # dispatch (signal on_show_welcome); tap_button(text) signals on_show_text "<text> show!!";
  # on_show_only_first pairs loads with taps as Combine's zip does.
  class WelcomeViewModel < Base
    c_class "welcome_view_model"
    command :view_did_load
    command :tap_button, :string
    signal :on_show_welcome, :string
    signal :on_show_text, :string
    signal :on_show_only_first

    def initialize(loop)
      construct(:mvvm_welcome_view_model_new, loop)
    end
  end

  # --- counters ---------------------------------------------------------------------------------

  class Counter < Base
    c_class "counter"
    property :count, :int
    command :increment
    command :decrement

    def initialize(loop)
      construct(:mvvm_counter_new, loop)
    end
  end

  # increment and decrement draw a count from 1 to 10 out of a generator seeded with `seed`.
  class RandomCounter < Base
    c_class "random_counter"
    property :count, :int
    command :increment
    command :decrement

    def initialize(loop, seed)
      Mvvm.integer_argument(seed, "seed")
      raise RangeError, "seed must be in 0...2**64, not #{seed}" unless seed.between?(0, 2**64 - 1)

      construct(:mvvm_random_counter_new, loop, seed)
    end
  end

  # A counter's screen over a Counter or a RandomCounter: label "Counter" / "Random Counter",
  # count as a string.
  class CounterViewModel < Base
    c_class "counter_view_model"
    property :label, :string
    property :count, :string
    command :increment
    command :decrement

    # The model given to new (nil for CounterPageViewModel's children).
    attr_reader :model

    def initialize(loop, model)
      construct(:mvvm_counter_view_model_new, loop, Mvvm.model_handle(model, "model"))
      @model = model
    end
  end

  # The counter page: a read-me and two counters, first over a Counter, second over a
  # RandomCounter (seeded with `seed`, or from the system's random source).
  class CounterPageViewModel < Base
    c_class "counter_page_view_model"
    property :read_me, :string
    child :first_counter, "counter_view_model"
    child :second_counter, "counter_view_model"

    def initialize(loop, seed: nil)
      if seed.nil?
        construct(:mvvm_counter_page_view_model_new, loop)
      else
        Mvvm.integer_argument(seed, "seed")
        raise RangeError, "seed must be in 0...2**64, not #{seed}" unless seed.between?(0, 2**64 - 1)

        construct(:mvvm_counter_page_view_model_new_with_seed, loop, seed)
      end
    end
  end
end
