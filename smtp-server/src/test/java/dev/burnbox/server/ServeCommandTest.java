package dev.burnbox.server;

import static java.util.stream.Collectors.joining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.burnbox.mailstore.InboxStore;
import dev.burnbox.matcher.MatcherKind;
import dev.burnbox.server.config.OptionCatalog;
import dev.burnbox.server.logging.LogCapture;
import dev.burnbox.server.pipeline.IntakePipeline.SpamPolicy;
import dev.burnbox.server.smtp.IntakeSettings;
import dev.burnbox.server.smtp.NetworkList;
import dev.burnbox.server.smtp.ThreadModel;
import dev.burnbox.server.web.MetricsEndpoint;
import dev.burnbox.server.web.WebLimits;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ServeCommandTest {
  @TempDir Path dir;

  private static ServiceSettings parse(String... args) {
    return parse(Map.of(), args);
  }

  private static ServiceSettings parse(Map<String, String> environment, String... args) {
    ServeCommand command = new ServeCommand(environment);
    command.commandLine().parseArgs(args);
    return command.settings();
  }

  private static String run(Map<String, String> environment, String... args) {
    Exit exit = serve(environment, args);
    assertThat(exit.code()).as(exit.err()).isZero();
    return exit.out();
  }

  /** How {@code burnbox serve} ended: its exit code, standard output and standard error. */
  private record Exit(int code, String out, String err) {}

  /**
   * Runs {@code serve} with {@code args} and this environment; it must fail or print its settings,
   * or it would run until stopped.
   */
  private static Exit serve(Map<String, String> environment, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine serve = new ServeCommand(environment).commandLine();
    serve.setOut(new PrintWriter(out));
    serve.setErr(new PrintWriter(err));
    int code = serve.execute(args);
    return new Exit(code, out.toString(), err.toString());
  }

  private static String[] with(List<String> args, String... more) {
    return Stream.concat(args.stream(), Stream.of(more)).toArray(String[]::new);
  }

  @Test
  void optionsWithoutACommandMeanServeWhileHelpAndVersionStayTheWholeCommandLines() {
    assertThat(BurnboxCli.withDefaultCommand(new String[0])).containsExactly("serve");
    assertThat(BurnboxCli.withDefaultCommand(new String[] {"--smtp-port=25", "--ttl", "1h"}))
        .containsExactly("serve", "--smtp-port=25", "--ttl", "1h");
    assertThat(BurnboxCli.withDefaultCommand(new String[] {"scan", "x"}))
        .containsExactly("scan", "x");
    assertThat(BurnboxCli.withDefaultCommand(new String[] {"--help"})).containsExactly("--help");
    assertThat(BurnboxCli.withDefaultCommand(new String[] {"-V"})).containsExactly("-V");
  }

  @Test
  void everyCommandAnswersVersionWithTheSameLine() {
    String version = "burnbox " + dev.burnbox.server.config.BurnboxVersion.current();
    for (List<String> args :
        List.of(
            List.of("--version"),
            List.of("serve", "--version"),
            List.of("serve", "-V"),
            List.of("--smtp-port=1", "--version"),
            List.of("scan", "--version"))) {
      StringWriter out = new StringWriter();
      int code =
          BurnboxCli.run(
              new PrintWriter(out),
              new PrintWriter(new StringWriter()),
              args.toArray(String[]::new));
      assertThat(code).as("%s", args).isZero();
      assertThat(out.toString()).as("%s", args).isEqualTo(version + System.lineSeparator());
    }
  }

  @Test
  void theEnvironmentSetsAnOptionAndTheCommandLineWins() {
    Map<String, String> environment =
        Map.of(
            "BURNBOX_INBOX_CAP", "7",
            "BURNBOX_TTL", "90m",
            "BURNBOX_NO_FILTERS", "true",
            "BURNBOX_DOMAINS", "a.test,b.test");
    ServiceSettings settings = parse(environment);
    assertThat(settings.store().inboxCap()).isEqualTo(7);
    assertThat(settings.store().ttl()).isEqualTo(Duration.ofMinutes(90));
    assertThat(settings.smtp().noFilters()).isTrue();
    assertThat(settings.smtp().domains()).containsExactlyInAnyOrder("a.test", "b.test");
    assertThat(parse(environment, "--inbox-cap=9").store().inboxCap()).isEqualTo(9);
  }

  @Test
  void printSettingsShowsEachValueAndWhereItCameFrom() {
    String printed =
        run(
            Map.of("BURNBOX_INBOX_CAP", "7", "BURNBOX_TLS_KEYSTORE_PASSWORD", "hunter2"),
            "--print-settings",
            "--ttl=90m",
            "--webhook-secret=swordfish");
    assertThat(printed)
        .containsPattern("--inbox-cap +7 +environment BURNBOX_INBOX_CAP")
        .containsPattern("--ttl +90m +command line")
        .containsPattern("--smtp-port +2525 +default")
        .containsPattern("--bind +every interface +default")
        .containsPattern("--store-max-bytes +auto = [1-9][0-9]* MiB \\([0-9]+ bytes\\) +default")
        // wrapped in its column
        .containsPattern(
            "(?s)--max-inflight-bytes +a quarter of the heap [^=]*= [1-9][0-9]*\\s+MiB")
        .containsPattern("--hostname +this host's name = \\S+ +default")
        .containsPattern("--matcher +best +default")
        .containsPattern("--tls-keystore-password +\\(hidden\\) +environment")
        .containsPattern("--webhook-secret +\\(hidden\\) +command line")
        .doesNotContain("hunter2")
        .doesNotContain("swordfish");
  }

  @Test
  void anEmptyVariableCountsAsUnsetAndPrintSettingsShowsWhatRuns() {
    Map<String, String> empty =
        Map.of(
            "BURNBOX_NO_FILTERS", "",
            "BURNBOX_STRIP_PLUS_TAGS", "",
            "BURNBOX_CORS_WRITES", "",
            "BURNBOX_ADMIN_TOKEN", "",
            "BURNBOX_SMTP_PORT", "",
            "BURNBOX_TTL", "");
    assertThat(parse(empty)).as("every setting at its default").isEqualTo(parse());
    assertThat(run(empty, "--print-settings"))
        .containsPattern("--no-filters +off +default")
        .containsPattern("--strip-plus-tags +off +default")
        .containsPattern("--cors-writes +off +default")
        .containsPattern("--admin-token +operator endpoints off +default")
        .containsPattern("--smtp-port +2525 +default")
        .containsPattern("--ttl +24h +default");
    assertThat(run(Map.of("BURNBOX_NO_FILTERS", "false"), "--print-settings"))
        .containsPattern("--no-filters +off +environment BURNBOX_NO_FILTERS");
    assertThat(run(Map.of("BURNBOX_NO_FILTERS", "true"), "--print-settings"))
        .containsPattern("--no-filters +on +environment BURNBOX_NO_FILTERS");
    assertThat(run(Map.of(), "--print-settings", "--strip-plus-tags", "--admin-token="))
        .containsPattern("--strip-plus-tags +on +command line")
        .as("an empty token opens nothing: nothing to hide")
        .containsPattern("--admin-token +operator endpoints off +command line");
  }

  @Test
  void printSettingsFollowsAValueInWordsWithWhatItComesTo() throws IOException {
    assertThat(run(Map.of(), "--print-settings"))
        .containsPattern(
            "--spam-threshold +the model's = "
                + java.util.regex.Pattern.quote(
                    String.valueOf(dev.burnbox.wordlists.SpamModel.defaults().threshold()))
                + " +default")
        .as("every domain is what it comes to: nothing to add")
        .containsPattern("--domains +every domain +default");
    Path model = Files.writeString(dir.resolve("model.tsv"), "#! threshold 0.93\nlottery\t2\n");
    assertThat(run(Map.of(), "--print-settings", "--terms=" + model))
        .containsPattern("--spam-threshold +the model's = 0\\.93 +default");
    assertThat(run(Map.of(), "--print-settings", "--spam-threshold=0.8"))
        .containsPattern("--spam-threshold +0\\.8 +command line");
    assertThat(
            run(
                Map.of(
                    "BURNBOX_DOMAINS", "a.test, b.test",
                    "BURNBOX_WEBHOOK", "https://a.test/x https://b.test/y"),
                "--print-settings"))
        .as("a list shows as given")
        .containsPattern("--domains +a\\.test, b\\.test +environment")
        .containsPattern("--webhook +https://a\\.test/x https://b\\.test/y +environment");
  }

  @Test
  void printSettingsRefusesWhatServeRefusesInTheSameWords() {
    Path missing = dir.resolve("missing");
    for (List<String> refused :
        List.of(
            List.of("--inbox-cap=0"),
            List.of("--inbox-cap=-1"),
            List.of("--store-max-bytes=0"),
            List.of("--ttl=PT-1H"),
            List.of("--ttl=PT0S"),
            List.of("--store=redis", "--redis-url=http://x"),
            List.of("--terms=" + missing),
            List.of("--tls-keystore=" + missing),
            List.of("--smtp-auth=" + missing),
            List.of("--matcher=foo"),
            List.of("--terms=" + badModel()),
            List.of("--snapshot=" + notAFolder().resolve("snap")))) {
      Exit served = serve(Map.of(), with(refused, "--smtp-port=0", "--http-port=0"));
      assertThat(served.code()).as("serve %s", refused).isNotZero();
      assertThat(served.err()).as("serve %s", refused).startsWith("burnbox: ");
      assertThat(serve(Map.of(), with(refused, "--print-settings")))
          .as("--print-settings %s", refused)
          .isEqualTo(new Exit(served.code(), "", served.err()));
    }
  }

  /** A model file whose first line's weight is no number. */
  private Path badModel() {
    try {
      return Files.writeString(dir.resolve("model.tsv"), "lottery\tbar\tany\t1\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A file where a folder should be. */
  private Path notAFolder() {
    try {
      return Files.writeString(dir.resolve("afile"), "x");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void aSettingServeCannotUseIsRefusedNamingTheOptionOrTheVariableWithExitCode2() {
    Path missing = dir.resolve("missing");
    String matchers =
        " must be naive, boyer-moore, trie, aho-corasick, wu-manber, org-ahocorasick or best: foo";
    String threshold = ": spam threshold must be a probability between 0 and 1 (exclusive): ";
    Map<List<String>, String> refusals = new java.util.LinkedHashMap<>();
    refusals.put(List.of("--matcher=foo"), "--matcher" + matchers);
    refusals.put(List.of("BURNBOX_MATCHER=foo"), "BURNBOX_MATCHER" + matchers);
    refusals.put(List.of("--spam-threshold=1.5"), "--spam-threshold" + threshold + "1.5");
    refusals.put(List.of("BURNBOX_SPAM_THRESHOLD=2"), "BURNBOX_SPAM_THRESHOLD" + threshold + "2.0");
    refusals.put(
        List.of("BURNBOX_SMTP_AUTH=" + missing),
        "BURNBOX_SMTP_AUTH: cannot read " + missing + ": no such file");
    refusals.put(
        List.of("BURNBOX_TERMS=" + missing),
        "BURNBOX_TERMS: cannot read " + missing + ": no such file");
    refusals.put(
        List.of("BURNBOX_TLS_KEYSTORE=" + missing),
        "BURNBOX_TLS_KEYSTORE: cannot read " + missing + ": no such file");
    refusals.put(
        List.of("--terms=" + badModel()),
        "--terms: " + badModel() + ":1: weight is not a number: 'bar'");
    refusals.put(
        List.of("BURNBOX_SNAPSHOT=" + notAFolder().resolve("snap")),
        "BURNBOX_SNAPSHOT: cannot write the snapshot "
            + notAFolder().resolve("snap")
            + ": "
            + notAFolder()
            + " is not a folder");
    refusals.put(
        List.of("--ttl=99999999999999999999s"),
        "--ttl: duration too large: '99999999999999999999s'");
    refusals.put(
        List.of("BURNBOX_TTL=9999999999999999d"),
        "BURNBOX_TTL: duration too large: '9999999999999999d'");
    refusals.forEach(
        (given, why) -> {
          String setting = given.get(0);
          Map<String, String> environment =
              setting.startsWith("--")
                  ? Map.of()
                  : Map.of(
                      setting.substring(0, setting.indexOf('=')),
                      setting.substring(setting.indexOf('=') + 1));
          String[] args =
              setting.startsWith("--")
                  ? new String[] {setting, "--print-settings"}
                  : new String[] {"--print-settings"};
          assertThat(serve(environment, args))
              .as("%s", given)
              .isEqualTo(new Exit(2, "", lines("burnbox: " + why, "Try 'burnbox serve --help'.")));
        });
  }

  @Test
  void aKeyStoreItsPasswordDoesNotOpenIsRefusedNamingThePasswordOptionOrItsVariable()
      throws Exception {
    for (String type : List.of("PKCS12", "JKS")) {
      Path store = keytool(type, "s3cret");
      String file = "--tls-keystore=" + store;
      String wrong = "the password does not open the key store " + store;
      Exit refused =
          new Exit(
              2,
              "",
              lines("burnbox: --tls-keystore-password: " + wrong, "Try 'burnbox serve --help'."));
      assertThat(serve(Map.of(), file, "--tls-keystore-password=wrong", "--print-settings"))
          .as(type)
          .isEqualTo(refused);
      assertThat(serve(Map.of("BURNBOX_TLS_KEYSTORE_PASSWORD", "wrong"), file, "--print-settings"))
          .as("%s, the password from the environment", type)
          .isEqualTo(
              new Exit(
                  2,
                  "",
                  lines(
                      "burnbox: BURNBOX_TLS_KEYSTORE_PASSWORD: " + wrong,
                      "Try 'burnbox serve --help'.")));
      assertThat(serve(Map.of(), file, "--print-settings").err())
          .as("%s, no password given", type)
          .startsWith(
              "burnbox: --tls-keystore-password: none given, and the key store "
                  + store
                  + " needs one"
                  + System.lineSeparator());
      assertThat(
              serve(
                  Map.of(),
                  file,
                  "--tls-keystore-password=wrong",
                  "--smtp-port=0",
                  "--http-port=0"))
          .as("%s, serve refuses it in the same words", type)
          .isEqualTo(refused);
      assertThat(run(Map.of(), file, "--tls-keystore-password=s3cret", "--print-settings"))
          .as("%s, the right password", type)
          .containsPattern("--tls-keystore-password +\\(hidden\\) +command line");
      Files.delete(store);
    }
    Path junk = Files.writeString(dir.resolve("junk.p12"), "not a key store");
    assertThat(
            serve(
                    Map.of(),
                    "--tls-keystore=" + junk,
                    "--tls-keystore-password=x",
                    "--print-settings")
                .err())
        .as("a file that is no key store is the key store's fault")
        .startsWith("burnbox: --tls-keystore: ");
  }

  /**
   * A key store of {@code type} made by the JDK's keytool, with one EC key under {@code password}.
   */
  private Path keytool(String type, String password) throws IOException, InterruptedException {
    Path store = dir.resolve("keys." + type.toLowerCase(java.util.Locale.ROOT));
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-alias",
                "mx",
                "-dname",
                "CN=mail.test",
                "-validity",
                "2",
                "-storetype",
                type,
                "-keystore",
                store.toString(),
                "-storepass",
                password,
                "-keypass",
                password)
            .redirectErrorStream(true)
            .start();
    String said = new String(keytool.getInputStream().readAllBytes());
    assertThat(keytool.waitFor()).as(said).isZero();
    return store;
  }

  @Test
  void printSettingsCreatesNoFolderForTheSnapshot() {
    Path snapshot = dir.resolve("a").resolve("b").resolve("snap.bin");
    assertThat(run(Map.of(), "--print-settings", "--snapshot=" + snapshot))
        .containsPattern("--snapshot +" + java.util.regex.Pattern.quote(snapshot.toString()));
    assertThat(dir.resolve("a")).doesNotExist();
  }

  @Test
  void printSettingsWarnsAsServeDoesWhenTheLimitsPassTheHeap() {
    LogCapture warnings = LogCapture.of(BurnboxService.class);
    try (warnings) {
      run(Map.of(), "--print-settings", "--store-max-bytes=100g");
    }
    assertThat(warnings.events())
        .singleElement()
        .satisfies(
            warning -> {
              assertThat(warning.getLevel()).isEqualTo(Level.WARN);
              assertThat(warning.getFormattedMessage())
                  .startsWith("the limits allow more than the heap holds: store 102400 MiB");
            });
  }

  @Test
  void printSettingsBindsNoPort() throws Exception {
    try (var smtp = new java.net.ServerSocket(0);
        var http = new java.net.ServerSocket(0)) {
      String port = Integer.toString(smtp.getLocalPort());
      assertThat(
              run(
                  Map.of(),
                  "--print-settings",
                  "--smtp-port=" + port,
                  "--http-port=" + http.getLocalPort()))
          .containsPattern("--smtp-port +" + port + " +command line");
    }
  }

  @Test
  void aBadValueIsOneLineNamingTheOptionOrTheVariableThatGaveIt() {
    assertThat(serve(Map.of(), "--max-message-size=-1"))
        .isEqualTo(
            new Exit(
                2,
                "",
                lines(
                    "burnbox: --max-message-size: not a byte size: '-1' (examples: 1048576, 512k,"
                        + " 10MiB, 2g)",
                    "Try 'burnbox serve --help'.")));
    assertThat(serve(Map.of("BURNBOX_TTL", "bogus")).err())
        .isEqualTo(
            lines(
                "burnbox: BURNBOX_TTL: not a duration: 'bogus' (examples: 24h, 90s, 1h30m, 250ms,"
                    + " PT24H)",
                "Try 'burnbox serve --help'."));
    assertThat(serve(Map.of("BURNBOX_TTL", "bogus"), "--ttl", "forever").err())
        .as("the command line's value is the one read")
        .startsWith("burnbox: --ttl: not a duration: 'forever'");
    assertThat(serve(Map.of("BURNBOX_SMTP_PORT", "70000"), "--print-settings").err())
        .as("refused by the settings rather than by a converter")
        .startsWith(
            "burnbox: BURNBOX_SMTP_PORT must be 0 to 65535: 70000" + System.lineSeparator());
    assertThat(serve(Map.of("BURNBOX_INBOX_CAP", "0"), "--print-settings").err())
        .startsWith("burnbox: BURNBOX_INBOX_CAP: inbox cap must be at least 1: 0");
    assertThat(serve(Map.of(), "--print-settings", "--store=redis", "--store-max-bytes=64m").err())
        .as("a refusal of values together, which names no one option")
        .startsWith("burnbox: each of the 16 Redis partitions gets");
    assertThat(serve(Map.of(), "--smtpport=1").err())
        .isEqualTo(
            lines(
                "burnbox: Unknown option: '--smtpport=1'",
                "Possible solutions: --smtp-port, --smtp-auth, --smtp-auth-insecure",
                "Try 'burnbox serve --help'."));
  }

  @Test
  void everyByteSizeOptionTakesSizeSuffixes() {
    CommandLine serve = new ServeCommand(Map.of()).commandLine();
    List<String> sizes =
        OptionCatalog.settings(serve.getCommandSpec()).stream()
            .filter(option -> option.paramLabel().equals("BYTES"))
            .map(option -> option.longestName())
            .toList();
    assertThat(sizes).contains("--max-message-size", "--max-line-length");
    for (String option : sizes) {
      assertThat(run(Map.of(), "--print-settings", option + "=16m"))
          .containsPattern(option + " +16m +command line");
    }
    assertThat(parse("--max-line-length=64k").smtp().maxLineLength()).isEqualTo(64 << 10);
  }

  @Test
  void aNumberItsSettingCannotHoldIsRefusedNamingTheLimit() {
    assertThat(serve(Map.of(), "--print-settings", "--max-message-size=100g"))
        .isEqualTo(
            new Exit(
                2,
                "",
                lines(
                    "burnbox: --max-message-size: byte size too large: '100g' (at most 2147483646"
                        + " bytes)",
                    "Try 'burnbox serve --help'.")));
    assertThat(serve(Map.of("BURNBOX_MAX_LINE_LENGTH", "2g"), "--print-settings").err())
        .startsWith(
            "burnbox: BURNBOX_MAX_LINE_LENGTH: byte size too large: '2g' (at most 2147483646"
                + " bytes)");
    assertThat(serve(Map.of(), "--print-settings", "--inbox-cap=99999999999").err())
        .startsWith("burnbox: --inbox-cap: too large: '99999999999' (at most 2147483647)");
    assertThat(serve(Map.of(), "--print-settings", "--inbox-cap=010").err())
        .as("decimal, not octal")
        .isEmpty();
    assertThat(parse("--inbox-cap=010").store().inboxCap()).isEqualTo(10);
    assertThat(serve(Map.of(), "--print-settings", "--max-message-size=99999999999999999999").err())
        .startsWith("burnbox: --max-message-size: byte size too large: '99999999999999999999'");
  }

  @Test
  void noInflightBudgetIsRefusedRatherThanReadAsTheDefault() {
    assertThat(serve(Map.of(), "--print-settings", "--max-inflight-bytes=0"))
        .isEqualTo(
            new Exit(
                2,
                "",
                lines(
                    "burnbox: --max-inflight-bytes must be at least --max-message-size (10485760):"
                        + " 0",
                    "Try 'burnbox serve --help'.")));
    assertThat(serve(Map.of("BURNBOX_MAX_INFLIGHT_BYTES", "0"), "--print-settings").err())
        .startsWith("burnbox: BURNBOX_MAX_INFLIGHT_BYTES must be at least");
  }

  private static String lines(String... lines) {
    return Stream.of(lines).map(line -> line + System.lineSeparator()).collect(joining());
  }

  @Test
  void aLogLevelThatIsNoneIsRefusedNamingTheLevels() {
    assertThat(serve(Map.of("BURNBOX_LOG_LEVEL", "bogus"), "--print-settings"))
        .isEqualTo(
            new Exit(
                2,
                "",
                lines(
                    "burnbox: BURNBOX_LOG_LEVEL: not a log level: 'bogus' (one of OFF, ERROR, WARN,"
                        + " INFO, DEBUG, TRACE, ALL)",
                    "Try 'burnbox serve --help'.")));
    assertThat(run(Map.of("BURNBOX_LOG_LEVEL", "debug"), "--print-settings")).isNotEmpty();
  }

  @Test
  void aBurnboxVariableThatNoOptionDeclaresIsWarnedOfWithTheOneItLooksLike() {
    LogCapture warnings = LogCapture.of(ServeCommand.class);
    try (warnings) {
      run(
          Map.of(
              "BURNBOX_SMTPPORT", "1",
              "BURNBOX_FROBNICATE", "yes",
              "BURNBOX_JAVA_OPTS", "-Xmx1g",
              "BURNBOX_AOT", "off",
              "BURNBOX_LOG_LEVEL", "info",
              "BURNBOX_TTL", "1h",
              "JAVA_HOME", "/opt/java"),
          "--print-settings");
    }
    assertThat(warnings.events())
        .extracting(ILoggingEvent::getLevel, ILoggingEvent::getFormattedMessage)
        .containsExactly(
            tuple(Level.WARN, "BURNBOX_FROBNICATE is no Burnbox setting and is ignored"),
            tuple(
                Level.WARN,
                "BURNBOX_SMTPPORT is no Burnbox setting and is ignored; did you mean"
                    + " BURNBOX_SMTP_PORT?"));
  }

  @Test
  void aRedisUrlsPasswordIsNeverShown() {
    String printed =
        run(Map.of("BURNBOX_REDIS_URL", "redis://u:Hunter2pw@h:1"), "--print-settings");
    assertThat(printed)
        .containsPattern("--redis-url +redis://u:\\(hidden\\)@h:1 +environment BURNBOX_REDIS_URL")
        .doesNotContain("Hunter2pw");
    Exit refused =
        serve(
            Map.of(),
            "--print-settings",
            "--store=redis",
            "--redis-url=redis://user:Hunter2pw@127.0.0.1:6390");
    assertThat(refused.code()).isEqualTo(2);
    assertThat(refused.err())
        .startsWith("burnbox: --redis-url: redis url must be")
        .contains("got redis://user:(hidden)@127.0.0.1:6390")
        .doesNotContain("Hunter2pw");
    assertThat(serve(Map.of(), "--print-settings", "--redis-url=redis://u:Hunter 2@h:1").err())
        .as("not even a URL")
        .startsWith("burnbox: --redis-url: ")
        .contains("redis://u:(hidden)@h:1")
        .doesNotContain("Hunter");
    assertThat(parse("--redis-url=redis://u:Hunter2pw@h:1").toString())
        .contains("redis://u:(hidden)@h:1")
        .doesNotContain("Hunter2pw");
  }

  @Test
  void helpListsEveryOptionWithItsVariableAndDefault() {
    // picocli wraps long words anywhere, so compare without whitespace
    String help = run(Map.of(), "--help").replaceAll("\\s+", "");
    CommandLine serve = new ServeCommand(Map.of()).commandLine();
    for (var option : OptionCatalog.settings(serve.getCommandSpec())) {
      String variableAndDefault =
          "("
              + OptionCatalog.variable(option)
              + ", default "
              + OptionCatalog.defaultText(option)
              + ")";
      assertThat(help)
          .as(option.longestName())
          .contains(option.longestName())
          .contains(variableAndDefault.replaceAll("\\s+", ""));
    }
  }

  @Test
  void theStoreOptionsDefaultsAreTheStoreLibrarysOwn() {
    ServiceSettings settings = parse();
    assertThat(settings.store().inboxCap()).isEqualTo(InboxStore.Builder.DEFAULT_INBOX_CAP);
    assertThat(settings.store().storeMaxBytes())
        .as("the service's own default: auto, from the heap")
        .isEqualTo(
            MemoryPlan.storeBudget(
                settings.smtp().maxInflightBytes(),
                settings.smtp().maxConnections(),
                Runtime.getRuntime().maxMemory()));
    assertThat(settings.store().ttl()).isEqualTo(InboxStore.Builder.DEFAULT_TTL);
    assertThat(settings.store().redisPartitions())
        .isEqualTo(InboxStore.Builder.DEFAULT_REDIS_PARTITIONS);
    assertThat(ServiceSettings.builder().build())
        .as("the builder starts from the options' defaults")
        .isEqualTo(settings);
  }

  @Test
  void threadsPoolTakesItsSizeFromPoolThreads() {
    ServiceSettings settings = parse("--threads=pool", "--pool-threads", "8");
    assertThat(settings.smtp().threads()).isEqualTo(ThreadModel.POOL);
    assertThat(settings.smtp().poolThreads()).isEqualTo(8);
    assertThat(parse().smtp().poolThreads()).isEqualTo(50);
  }

  @Test
  void withoutOptionsEverySettingHasItsDocumentedDefault() {
    ServiceSettings settings = parse();
    assertThat(settings.smtp().port()).isEqualTo(2525);
    assertThat(settings.web().port()).isEqualTo(8080);
    assertThat(settings.smtp().domains()).isEmpty();
    assertThat(settings.smtp().threads()).isEqualTo(ThreadModel.VIRTUAL);
    assertThat(settings.smtp().maxMessageSize()).isEqualTo(10 << 20);
    assertThat(settings.smtp().maxRecipients()).isEqualTo(100);
    assertThat(settings.smtp().nullSender()).isEqualTo(IntakeSettings.NullSender.ACCEPT);
    assertThat(settings.smtp().noFilters()).isFalse();
    assertThat(settings.pipeline().matcherKind()).isNull();
    assertThat(settings.pipeline().terms()).isNull();
    assertThat(settings.pipeline().spam()).isEqualTo(SpamPolicy.TAG);
    assertThat(settings.store().inboxCap()).isEqualTo(50);
    assertThat(settings.store().storeMaxBytes())
        .isEqualTo(
            Math.max(
                32L << 20,
                Runtime.getRuntime().maxMemory() / 4 * 3
                    - (32L << 20)
                    - Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 64)
                    - settings.smtp().maxInflightBytes()
                    - 2000 * 48 * 1024));
    assertThat(parse("--store=redis").store().storeMaxBytes()).isEqualTo(256L << 20);
    assertThat(parse("--store-max-bytes=1g").store().storeMaxBytes()).isEqualTo(1L << 30);
    assertThat(parse("--store-max-bytes=AUTO").store().storeMaxBytes())
        .isEqualTo(settings.store().storeMaxBytes());
    assertThat(settings.store().ttl()).isEqualTo(Duration.ofHours(24));
    assertThat(settings.store().store()).isEqualTo(StoreSettings.StoreKind.MEMORY);
  }

  @Test
  void storeRedisTakesTheRedisUrlAndMemoryIgnoresIt() {
    assertThat(parse("--store=redis", "--redis-url=redis://10.0.0.7:6380").store().redisUrl())
        .isEqualTo(URI.create("redis://10.0.0.7:6380"));
    assertThat(parse("--store=redis").store().redisUrl())
        .isEqualTo(URI.create("redis://localhost:6379"));
    assertThat(parse("--store=memory", "--redis-url=redis://10.0.0.7:6380").store().store())
        .isEqualTo(StoreSettings.StoreKind.MEMORY);
    ServiceSettings cluster =
        parse("--store=redis", "--redis-url=redis-cluster://10.0.0.7:7000,10.0.0.8:7000");
    assertThat(cluster.store().redisUrl())
        .isEqualTo(URI.create("redis-cluster://10.0.0.7:7000,10.0.0.8:7000"));
    assertThat(cluster.store().redisPartitions()).isEqualTo(16);
    assertThat(parse("--store=redis", "--redis-partitions=3").store().redisPartitions())
        .isEqualTo(3);
    assertThatThrownBy(() -> parse("--store=redis", "--redis-partitions=300"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 to 256");
    assertThatThrownBy(() -> parse("--store=redis", "--store-max-bytes=64m"))
        .as("4 MiB per partition, under the 10 MiB largest message")
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--redis-partitions");
    assertThatThrownBy(() -> parse("--store=redis", "--snapshot=/tmp/x.snap"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("snapshot");
  }

  @Test
  void optionsReachTheSettings() {
    ServiceSettings settings =
        parse(
            "--smtp-port=0",
            "--http-port=0",
            "--domains=a.test, B.test",
            "--threads=platform",
            "--max-message-size=1MiB",
            "--max-recipients=3",
            "--null-sender=refuse",
            "--no-filters",
            "--matcher=wu-manber",
            "--terms=/tmp/terms.txt",
            "--spam=reject",
            "--spam-threshold=0.75",
            "--inbox-cap=7",
            "--store-max-bytes=64m",
            "--ttl=90m",
            "--subject-flood-count=10",
            "--subject-flood-window=1m",
            "--subject-flood-ban=2h");
    assertThat(settings.smtp().port()).isZero();
    assertThat(settings.web().port()).isZero();
    assertThat(settings.smtp().domains()).containsExactlyInAnyOrder("a.test", "b.test");
    assertThat(settings.smtp().threads()).isEqualTo(ThreadModel.PLATFORM);
    assertThat(settings.smtp().maxMessageSize()).isEqualTo(1 << 20);
    assertThat(settings.smtp().maxRecipients()).isEqualTo(3);
    assertThat(settings.smtp().nullSender()).isEqualTo(IntakeSettings.NullSender.REFUSE);
    assertThat(settings.smtp().noFilters()).isTrue();
    assertThat(settings.pipeline().matcherKind()).isEqualTo(MatcherKind.WU_MANBER);
    assertThat(settings.pipeline().terms()).isEqualTo(Path.of("/tmp/terms.txt"));
    assertThat(settings.pipeline().spam()).isEqualTo(SpamPolicy.REJECT);
    assertThat(settings.pipeline().spamThreshold()).isEqualTo(0.75);
    assertThat(settings.store().inboxCap()).isEqualTo(7);
    assertThat(settings.store().storeMaxBytes()).isEqualTo(64L << 20);
    assertThat(settings.store().ttl()).isEqualTo(Duration.ofMinutes(90));
    assertThat(settings.pipeline().subjectFloodCount()).isEqualTo(10);
    assertThat(settings.pipeline().subjectFloodBan()).isEqualTo(Duration.ofHours(2));
  }

  @Test
  void badValuesExitWith2AndSayWhy() {
    StringWriter err = new StringWriter();
    int code =
        BurnboxCli.run(
            new PrintWriter(new StringWriter()), new PrintWriter(err), "serve", "--ttl=forever");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString())
        .as("one line, then where to look; not the whole usage")
        .isEqualTo(
            lines(
                "burnbox: --ttl: not a duration: 'forever' (examples: 24h, 90s, 1h30m, 250ms,"
                    + " PT24H)",
                "Try 'burnbox serve --help'."));

    err = new StringWriter();
    code =
        BurnboxCli.run(
            new PrintWriter(new StringWriter()),
            new PrintWriter(err),
            "serve",
            "--trusted-networks=10.0.0.0/99");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("10.0.0.0/99");
  }

  @Test
  void aPortInUseExitsWith1NamingTheOptionAndThePort() throws Exception {
    try (var taken = new java.net.ServerSocket(0)) {
      int port = taken.getLocalPort();
      for (List<String> ports :
          List.of(
              List.of("--smtp-port=" + port, "--http-port=0"),
              List.of("--smtp-port=0", "--http-port=" + port),
              List.of("--smtp-port=0", "--http-port=0", "--metrics-port=" + port))) {
        String option = ports.stream().filter(p -> p.endsWith("=" + port)).findFirst().get();
        StringWriter err = new StringWriter();
        int code =
            BurnboxCli.run(
                new PrintWriter(new StringWriter()),
                new PrintWriter(err),
                Stream.concat(Stream.of("serve"), ports.stream()).toArray(String[]::new));
        assertThat(code).as("%s", ports).isEqualTo(1);
        assertThat(err.toString())
            .as("%s", ports)
            .startsWith(
                "burnbox: cannot start: "
                    + option.replace('=', ' ')
                    + ": Address already in use"
                    + System.lineSeparator());
      }
    }
  }

  @Test
  void twoServersOnOnePortAreRefusedBeforeAnyIsBound() {
    assertThat(serve(Map.of(), "--print-settings", "--smtp-port=3580", "--http-port=3580"))
        .isEqualTo(
            new Exit(
                2,
                "",
                lines(
                    "burnbox: --http-port must differ from --smtp-port: both are 3580",
                    "Try 'burnbox serve --help'.")));
    assertThat(serve(Map.of("BURNBOX_HTTP_PORT", "2525"), "--print-settings").err())
        .startsWith("burnbox: BURNBOX_HTTP_PORT must differ from --smtp-port: both are 2525");
    assertThat(serve(Map.of(), "--print-settings", "--metrics-port=8080").err())
        .startsWith("burnbox: --metrics-port must differ from --http-port: both are 8080");
    assertThat(
            serve(
                    Map.of(),
                    "--print-settings",
                    "--bind=127.0.0.1",
                    "--metrics-port=2525",
                    "--metrics-bind=127.0.0.2")
                .code())
        .as("the same port on other addresses")
        .isZero();
    assertThat(run(Map.of(), "--print-settings", "--smtp-port=0", "--http-port=0"))
        .as("0 picks a free port for each")
        .containsPattern("--http-port +0 +command line");
  }

  @Test
  void aMissingZstdLibrarySaysWhichJarToPutBesideBurnbox() {
    String why =
        ServeCommand.describe(
            new UnsatisfiedLinkError(
                "no zstd-jni-1.5.7-6 in java.library.path: /usr/lib\nUnsupported OS/arch, cannot"
                    + " find /darwin/aarch64/libzstd-jni-1.5.7-6.dylib"));
    assertThat(why)
        .contains("no zstd library for " + System.getProperty("os.name"))
        .contains("put zstd-jni-" + com.github.luben.zstd.util.ZstdVersion.VERSION + ".jar")
        .contains("no zstd-jni-1.5.7-6 in java.library.path")
        .doesNotContain("\n");
    assertThat(ServeCommand.describe(new java.io.IOException("port 25 in use")))
        .isEqualTo("port 25 in use");
  }

  @Test
  void theWebLimitsAndTheMetricsHaveTheirDocumentedDefaults() {
    ServiceSettings settings = parse();
    assertThat(settings.webLimits())
        .isEqualTo(
            new WebLimits(2000, 50, Duration.ofSeconds(20), NetworkList.parse("127.0.0.0/8,::1")));
    assertThat(settings.web().metrics()).isEqualTo(MetricsEndpoint.webPort());
  }

  @Test
  void theWebLimitOptionsReachTheSettingsWithTheTrustedNetworks() {
    ServiceSettings settings =
        parse(
            "--http-max-connections=300",
            "--http-max-connections-per-ip=8",
            "--http-head-timeout=5s",
            "--trusted-networks=10.0.0.0/8");
    assertThat(settings.webLimits())
        .isEqualTo(new WebLimits(300, 8, Duration.ofSeconds(5), NetworkList.parse("10.0.0.0/8")));
    assertThatThrownBy(() -> parse("--http-max-connections-per-ip=0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("per ip");
    assertThatThrownBy(() -> parse("--http-head-timeout=0s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("head timeout");
  }

  @Test
  void metricsPortMovesTheMetricsToLoopbackOrTheGivenAddressOrTurnsThemOff() throws Exception {
    assertThat(parse("--metrics-port=9100").web().metrics())
        .isEqualTo(MetricsEndpoint.ownPort(InetAddress.getByName("127.0.0.1"), 9100));
    assertThat(parse("--metrics-port=0", "--metrics-bind=10.1.2.3").web().metrics())
        .isEqualTo(MetricsEndpoint.ownPort(InetAddress.getByName("10.1.2.3"), 0));
    assertThat(parse("--metrics-port=OFF").web().metrics()).isEqualTo(MetricsEndpoint.off());
    assertThat(parse("--metrics-port=web").web().metrics()).isEqualTo(MetricsEndpoint.webPort());
    assertThatThrownBy(() -> parse("--metrics-bind=10.1.2.3"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--metrics-port N");
    assertThatThrownBy(() -> parse("--metrics-port=nine"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("web, off or a port");
    assertThatThrownBy(() -> parse("--metrics-port=70000"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 to 65535");
  }

  @Test
  void serveHelpShowsTheWebLimitsAndWhereTheMetricsGo() {
    StringWriter out = new StringWriter();
    int code =
        BurnboxCli.run(
            new PrintWriter(out), new PrintWriter(new StringWriter()), "serve", "--help");
    assertThat(code).isZero();
    assertThat(out.toString())
        .contains("--http-max-connections=N")
        .contains("--http-max-connections-per-ip=N")
        .contains("--http-head-timeout=DURATION")
        .contains("--metrics-port=web|off|N")
        .contains("--metrics-bind=ADDRESS")
        .contains("BURNBOX_METRICS_PORT");
  }

  @Test
  void serveHelpReadsAsPlainText() {
    String help = run(Map.of(), "--help");
    assertThat(help)
        .as("the usage line shows the option, not its split pattern")
        .contains("[--webhook=[SCOPE=]URL]...")
        .doesNotContain("\\s+")
        .as("no Markdown links")
        .doesNotContain("](");
    // picocli wraps long words anywhere, so compare without whitespace
    assertThat(help.replaceAll("\\s+", ""))
        .contains("seeMetricsintheREADME")
        .contains("(seedocs/deploy.md);");
    CommandLine serve = new ServeCommand(Map.of()).commandLine();
    assertThat(OptionCatalog.markdownTable(serve.getCommandSpec()))
        .as("the README's table keeps its links")
        .contains("see [Metrics](#metrics)")
        .contains("[docs/deploy.md](docs/deploy.md#redis-cluster)");
  }

  @Test
  void maxInflightBytesDefaultsToAQuarterOfTheHeapAndCanBeSet() {
    long quarterHeap = Runtime.getRuntime().maxMemory() / 4;
    assertThat(parse().smtp().maxInflightBytes()).isEqualTo(Math.max(quarterHeap, 10 << 20));
    assertThat(parse("--max-inflight-bytes=48m").smtp().maxInflightBytes()).isEqualTo(48L << 20);
  }
}
