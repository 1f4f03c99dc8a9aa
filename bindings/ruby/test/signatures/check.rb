# frozen_string_literal: true

# Checks the RBS signatures of the Ruby bindings (bindings/ruby/sig, or the folder given as the
# first argument) against the bindings themselves, in a process of its own (RBS's parser is a C
# extension that other tests' GC.compact would move under its feet):
# 1. declared: each class made at run time has exactly the methods its signature declares, a
#    second name of a class is declared as that class, and every public method of the fixed API
#    (Loop, Base, List...) has a signature;
# 2. true: with RBS's runtime type checker hooked into every class of Mvvm, a program uses every
#    class; a call whose arguments or result do not fit raises RBS::Test::Tester::TypeError.
# Exits 1 naming what does not fit.
#   MVVM_LIBRARY=... ruby -I bindings/ruby/lib bindings/ruby/test/signatures/check.rb [SIG_DIR]
require "rbs"
require "rbs/test"
require "logger"
require "mvvm"

RBS.logger_level = :error
sig_dir = ARGV[0] || File.expand_path("../../sig", __dir__)
loader = RBS::EnvironmentLoader.new
loader.add(path: Pathname(sig_dir))
env = RBS::Environment.from_loader(loader).resolve_type_names
builder = RBS::DefinitionBuilder.new(env: env)
type_name = ->(name) { RBS::Factory.new.type_name("::#{name}").absolute! }
# The instance methods the signatures give `klass` itself (not its ancestors).
declared = lambda do |klass|
  name = type_name.call(klass.name)
  builder.build_instance(name).methods.select { |_, method| method.implemented_in == name }.keys
end

problems = []
Mvvm.classes.each_value do |klass|
  made = klass.instance_methods(false)
  signed = declared.call(klass) - [:initialize]
  problems << "#{klass.name}: made by Ruby without a signature: #{(made - signed).sort}" unless (made - signed).empty?
  problems << "#{klass.name}: declared but not made by Ruby: #{(signed - made).sort}" unless (signed - made).empty?
  Mvvm.constants.select { |c| Mvvm.const_get(c).equal?(klass) && "Mvvm::#{c}" != klass.name }.each do |second|
    constant = env.constant_decls[type_name.call("Mvvm::#{second}")]
    next if constant&.decl&.type.to_s == "singleton(::#{klass.name})"

    problems << "Mvvm::#{second}: not declared as singleton(#{klass.name})"
  end
end
fixed = [Mvvm::Loop, Mvvm::Base, Mvvm::List, Mvvm::Subscription, Mvvm::Service, Mvvm::Request, Mvvm::Splice, Mvvm::Event,
         Mvvm::Call]
fixed.each do |klass|
  missing = klass.public_instance_methods(false) - declared.call(klass)
  missing -= Struct.public_instance_methods if klass.superclass == Struct
  problems << "#{klass.name}: public methods without a signature: #{missing.sort}" unless missing.empty?
end
unless problems.empty?
  warn "check.rb: the signatures in #{sig_dir} do not declare the bindings as they are:", *problems
  exit 1
end
puts "check.rb: declared: #{Mvvm.classes.size} classes made at run time, #{fixed.size} of the fixed API"

tester = RBS::Test::Tester.new(env: env)
checked = fixed - [Mvvm::Event] + Mvvm.classes.values
checked.each { |klass| tester.install!(klass, sample_size: 100, unchecked_classes: []) }

Mvvm::Loop.virtual do |loop|
  # The catalog's classes, when the library carries it (libmvvm.so; not Tests/outside's libsample.so).
  if Mvvm.classes.key?("count_down_timer")
    # Constructors: none, positional, by keyword, a model, a service as keyword, positional or block.
    timer = Mvvm::CountDownTimer.new(loop, 3)
    Mvvm::CountDownTimer.new(loop, full_count: 2).close
    screen = Mvvm::TimerViewModel.new(loop, timer)
    Mvvm::TimerViewModel.new(loop, timer: timer).close
    screen.player.tapped("start")
    screen.player.tapped(:pause)
    screen.player.is_play_timer?
    loop.advance(1000)
    screen.timer&.count
    screen.display.remaining_time
    screen.is_show_alert = false
    screen.is_show_alert?

    watch = Mvvm::StopWatch.new(loop)
    watch.start
    loop.advance(30)
    watch.state
    watch.time_ms
    watch.stop
    page = Mvvm::StopWatchViewModel.new(loop)
    page.main_action
    page.time
    page.main_action_enabled?

    echo = Mvvm::InputEchoViewModel.new(loop)
    echo.input = "hello"
    echo.input = :symbol
    [echo.input, echo.label, echo.message]

    form = Mvvm::SignUpViewModel.new(loop)
    seen = []
    subscription = form.subscribe(:is_sign_up_enabled) { |name, value, event| seen << [name, value, event.kind] }
    form.user_id = "abcdef"
    form.password = form.confirm_password = "12345678"
    form.agreed = true
    form.sign_up_tapped
    form.is_completion_alert_presented?
    form.get(:password)
    form[:agreed] = false
    form.snapshot
    subscription.active?
    subscription.unsubscribe
    raise "no event reached the subscriber" if seen.empty?

    service = Mvvm::Service.new { |request| request.complete(request.argument != "root") }
    Mvvm::SignUpViewModel.new(loop, service).close
    Mvvm::SignUpViewModel.new(loop, service: service).close
    observable = Mvvm::ObservableSignUpViewModel.new(loop) { |request| request.complete(true) }
    observable.user_id = "abcdef"
    observable.password = observable.confirm_password = "12345678"
    observable.agreed = true
    observable.sign_up_tapped
    observable.is_sign_up_enabled?
    observable.close
    service.close

    welcome = Mvvm::WelcomeViewModel.new(loop, api: ->(request) { request.complete("Welcome #{request.argument}") })
    welcome.view_did_load
    welcome.tap_button("again")
    Mvvm::WelcomeViewModel.new(loop) { |request| request.complete("hi") }.close

    counter = Mvvm::Counter.new(loop)
    counter.increment.decrement.increment
    seeded = Mvvm::RandomCounter.new(loop, seed: 7)
    seeded.increment
    view = Mvvm::CounterViewModel.new(loop, counter)
    view.increment
    [view.label, view.count, view.model&.count]
    Mvvm::CounterViewModel.new(loop, model: seeded).close
    counter_page = Mvvm::CounterPageViewModel.new(loop, 42)
    counter_page.first_counter.increment
    [counter_page.read_me, counter_page.second_counter.count]
    Mvvm::CounterPageViewModel.new(loop).close
  end

  # Tests/outside's classes, when the library is its libsample.so (and the signatures its
  # generated ones): optionals, arrays, records, bytes, commands with arguments and results.
  if Mvvm.classes.key?("profile")
    profile = Mvvm.class_for("profile").new(loop)
    profile.first = "Ada"
    profile.limit = 3
    profile.limit = nil
    profile.tags = ["a", :b]
    profile.scores = [1, 2.5]
    profile.address = Mvvm.library.record("address").new(street: "1 Main St", city: "London")
    profile.address = { street: "1 Main St", city: "London", zip_code: "N1" }
    profile.avatar = "\x89PNG".b
    [profile.full_name, profile.limit, profile.tags, profile.scores, profile.address&.city, profile.avatar, profile.saves]
    profile.contact(name: "Ada", street: "2 Elm St", city: "Paris").address.city
    profile.contact("Ada", "2 Elm St", "Paris")
    profile.save.name
    profile.move_tag(from: 0, to: 1)
    # Async commands: with a block and without, by position and keyword, ended, failed, cancelled.
    ended = []
    loading = profile.load(2) { |tags, error| ended << [tags, error] }
    [loading.done?, loading.handle, loading.object, loading.name, loading.error]
    loop.advance(2000)
    [loading.value, loading.result, loading.inspect]
    profile.load(count: -1) { |tags, error| ended << [tags, error] }.error
    profile.ping.value
    profile.ping { |saves, error| ended << [saves, error] }
    profile.load(1).cancel
    Mvvm.call_async(profile, :load, 0).value
    raise "no async call ended" unless ended.size == 3
    wishlist = Mvvm.class_for("wishlist").new(loop)
    wishlist.add("pen", 2.5)
    wishlist.add(item: "cap")
    [wishlist.items, wishlist.prices, wishlist.total, wishlist.item(0), wishlist.budget, wishlist.home]
    wishlist.budget = 3
    dialog = Mvvm.class_for("dialog").new(loop)
    [dialog.description, dialog.closed?, dialog.handle, dialog.loop, dialog.id, dialog.class_, dialog.log]
    dialog.class_ = "sheet"
    dialog.close.subscribe.unsubscribe.get.set.describe.snapshot
    dialog.send_("hi")
    dialog.move(from: 1, to: 2)
  end
end

puts "check.rb: true: every call fit the signatures (#{checked.size} classes checked at run time)"
