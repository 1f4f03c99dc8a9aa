# frozen_string_literal: true

# Checks the RBS signatures of the Ruby binding (its fixed API's, bindings/ruby/sig/mvvm.rbs) and
# of a library's classes (the ones `python3 -m mvvm_gen --rbs` wrote for it, declared in the module
# NAMESPACE) against the binding itself, in a process of its own (RBS's parser is a C extension that
# other tests' GC.compact would move under its feet). The library is loaded as a host loads it,
# by path, its namespace named by the constant NAMESPACE (NAMESPACE = Mvvm.load(LIBRARY)):
# 1. declared: each class made at run time has exactly the methods its signature declares, a
#    second name of a class is declared as that class, and every public method of the fixed API
#    (Loop, Base, List...) has a signature;
# 2. true: with RBS's runtime type checker hooked into every class of the library and of the fixed
#    API, a program uses every class; a call whose arguments or result do not fit raises
#    RBS::Test::Tester::TypeError.
# Exits 1 naming what does not fit.
#   ruby -I bindings/ruby/lib bindings/ruby/test/signatures/check.rb LIBRARY NAMESPACE SIG_DIR...
require "rbs"
require "rbs/test"
require "logger"
require "mvvm"

RBS.logger_level = :error
abort "usage: check.rb LIBRARY NAMESPACE SIG_DIR..." if ARGV.size < 3
library_path, namespace, *sig_dirs = ARGV
library = Object.const_set(namespace, Mvvm.load(library_path))
loader = RBS::EnvironmentLoader.new
sig_dirs.each { |dir| loader.add(path: Pathname(dir)) }
env = RBS::Environment.from_loader(loader).resolve_type_names
builder = RBS::DefinitionBuilder.new(env: env)
type_name = ->(name) { RBS::Factory.new.type_name("::#{name}").absolute! }
# The instance methods the signatures give `klass` itself (not its ancestors).
declared = lambda do |klass|
  name = type_name.call(klass.name)
  builder.build_instance(name).methods.select { |_, method| method.implemented_in == name }.keys
end

problems = []
library.classes.each_value do |klass|
  made = klass.instance_methods(false)
  signed = declared.call(klass) - [:initialize]
  problems << "#{klass.name}: made by Ruby without a signature: #{(made - signed).sort}" unless (made - signed).empty?
  problems << "#{klass.name}: declared but not made by Ruby: #{(signed - made).sort}" unless (signed - made).empty?
  library.constants.select { |c| library.const_get(c).equal?(klass) && "#{namespace}::#{c}" != klass.name }.each do |second|
    constant = env.constant_decls[type_name.call("#{namespace}::#{second}")]
    next if constant&.decl&.type.to_s == "singleton(::#{klass.name})"

    problems << "#{namespace}::#{second}: not declared as singleton(#{klass.name})"
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
  warn "check.rb: the signatures in #{sig_dirs.join(", ")} do not declare the binding as it is:", *problems
  exit 1
end
puts "check.rb: declared: #{library.classes.size} classes made at run time, #{fixed.size} of the fixed API"

tester = RBS::Test::Tester.new(env: env)
checked = fixed - [Mvvm::Event] + library.classes.values
checked.each { |klass| tester.install!(klass, sample_size: 100, unchecked_classes: []) }

Mvvm::Loop.virtual(library: library) do |loop|
  # The catalog's classes, when the library carries it (libcatalog.so; not Tests/outside's libsample.so).
  if library.classes.key?("count_down_timer")
    # Constructors: none, positional, by keyword, a model, a service as keyword, positional or block.
    timer = library::CountDownTimer.new(loop, 3)
    library::CountDownTimer.new(loop, full_count: 2).close
    screen = library::TimerViewModel.new(loop, timer)
    library::TimerViewModel.new(loop, timer: timer).close
    screen.player.tapped("start")
    screen.player.tapped(:pause)
    screen.player.is_play_timer?
    loop.advance(1000)
    screen.timer&.count
    screen.display.remaining_time
    screen.is_show_alert = false
    screen.is_show_alert?

    watch = library::StopWatch.new(loop)
    watch.start
    loop.advance(30)
    watch.state
    watch.time_ms
    watch.stop
    page = library::StopWatchViewModel.new(loop)
    page.main_action
    page.time
    page.main_action_enabled?

    echo = library::InputEchoViewModel.new(loop)
    echo.input = "hello"
    echo.input = :symbol
    [echo.input, echo.label, echo.message]

    form = library::SignUpViewModel.new(loop)
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

    service = Mvvm::Service.new(library: library) { |request| request.complete(request.argument != "root") }
    library::SignUpViewModel.new(loop, service).close
    library::SignUpViewModel.new(loop, service: service).close
    observable = library::ObservableSignUpViewModel.new(loop) { |request| request.complete(true) }
    observable.user_id = "abcdef"
    observable.password = observable.confirm_password = "12345678"
    observable.agreed = true
    observable.sign_up_tapped
    observable.is_sign_up_enabled?
    observable.close
    service.close

    welcome = library::WelcomeViewModel.new(loop, api: ->(request) { request.complete("Welcome #{request.argument}") })
    welcome.view_did_load
    welcome.tap_button("again")
    library::WelcomeViewModel.new(loop) { |request| request.complete("hi") }.close

    counter = library::Counter.new(loop)
    counter.increment.decrement.increment
    seeded = library::RandomCounter.new(loop, seed: 7)
    seeded.increment
    view = library::CounterViewModel.new(loop, counter)
    view.increment
    [view.label, view.count, view.model&.count]
    library::CounterViewModel.new(loop, model: seeded).close
    counter_page = library::CounterPageViewModel.new(loop, 42)
    counter_page.first_counter.increment
    [counter_page.read_me, counter_page.second_counter.count]
    library::CounterPageViewModel.new(loop).close
  end

  # Tests/outside's classes, when the library is its libsample.so (and the signatures its
  # generated ones): optionals, arrays, records, bytes, commands with arguments and results.
  if library.classes.key?("profile")
    profile = library.class_for("profile").new(loop)
    profile.first = "Ada"
    profile.limit = 3
    profile.limit = nil
    profile.tags = ["a", :b]
    profile.scores = [1, 2.5]
    profile.address = library.record("address").new(street: "1 Main St", city: "London")
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
    wishlist = library.class_for("wishlist").new(loop)
    wishlist.add("pen", 2.5)
    wishlist.add(item: "cap")
    [wishlist.items, wishlist.prices, wishlist.total, wishlist.item(0), wishlist.budget, wishlist.home]
    wishlist.budget = 3
    dialog = library.class_for("dialog").new(loop)
    [dialog.description, dialog.closed?, dialog.handle, dialog.loop, dialog.id, dialog.class_, dialog.log]
    dialog.class_ = "sheet"
    dialog.close.subscribe.unsubscribe.get.set.describe.snapshot
    dialog.send_("hi")
    dialog.move(from: 1, to: 2)
  end
end

puts "check.rb: true: every call fit the signatures (#{checked.size} classes checked at run time)"
