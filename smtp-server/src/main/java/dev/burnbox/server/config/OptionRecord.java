package dev.burnbox.server.config;

import dev.burnbox.mailstore.UrlPasswords;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Collection;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * A settings record whose components are its options: each component is declared once, with
 * picocli's {@link Option} (name, default, label, description, converter, split) and, for a default
 * in words, {@link WhenUnset}; a component marked {@link Mixin} is a nested settings record whose
 * options join its parent's. The record's accessors are the typed values; its canonical constructor
 * validates them. This class binds such a record to a picocli command (its {@link #spec()} is a
 * mixin) and builds the record from the parsed values ({@link #value()}), so that {@code burnbox
 * serve}, the embedded service and tests all build settings through the same declarations ({@link
 * #parse}).
 *
 * <p>Of {@link Option} it reads {@code names}, {@code paramLabel}, {@code defaultValue}, {@code
 * description}, {@code split}, {@code arity}, {@code hideParamSyntax} and {@code converter}. A
 * value is converted by the option's {@code converter}, else by a public static {@code
 * parse(String)} of its type (or of a list's element type, a blank element giving null), an {@code
 * int} in decimal by {@link OptionValues#parseInt} (picocli's would read {@code 010} as octal and
 * name no limit), else as picocli converts it. An option not given takes its {@code defaultValue};
 * without one, null (zero or false for a primitive). Not thread-safe; use one instance per parse.
 *
 * @param <T> the settings record
 */
public final class OptionRecord<T extends Record> {
  private final Constructor<T> constructor;
  private final Object[] values;
  private final OptionRecord<?>[] nested;
  private final Class<?>[] types;
  private final CommandSpec spec = CommandSpec.create();

  /**
   * @throws IllegalArgumentException if a component is neither an option nor a nested record
   */
  public OptionRecord(Class<T> type) {
    RecordComponent[] components = type.getRecordComponents();
    values = new Object[components.length];
    nested = new OptionRecord<?>[components.length];
    types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
    for (int i = 0; i < components.length; i++) {
      Field field = field(type, components[i].getName());
      Option option = field.getAnnotation(Option.class);
      if (option != null) {
        spec.addOption(option(option, field, i));
      } else if (field.isAnnotationPresent(Mixin.class)) {
        nested[i] = new OptionRecord<>(types[i].asSubclass(Record.class));
        spec.addMixin(field.getName(), nested[i].spec);
      } else {
        throw new IllegalArgumentException(field + " is neither an @Option nor a @Mixin");
      }
    }
    try {
      constructor = type.getDeclaredConstructor(types);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
    constructor.setAccessible(true);
  }

  /**
   * {@code type} with {@code options} given (later ones win), every other option at its default; no
   * environment.
   *
   * @throws IllegalArgumentException if an option is unknown, a value does not parse, or the record
   *     refuses the values; the message names the option
   */
  public static <T extends Record> T parse(Class<T> type, String... options) {
    OptionRecord<T> record = new OptionRecord<>(type);
    try {
      new CommandLine(record.spec)
          .setCaseInsensitiveEnumValuesAllowed(true)
          .setOverwrittenOptionsAllowed(true)
          .parseArgs(options);
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return record.value();
  }

  /** The options, as a picocli mixin whose parsed values {@link #value()} reads. */
  public CommandSpec spec() {
    return spec;
  }

  /**
   * The record of the values parsed so far (every option at its default before a parse).
   *
   * @throws IllegalArgumentException as the record's constructor refuses the values
   */
  public T value() {
    Object[] arguments = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      Object value = nested[i] != null ? nested[i].value() : values[i];
      boolean zero = value == null && types[i].isPrimitive();
      arguments[i] = zero ? Array.get(Array.newInstance(types[i], 1), 0) : value;
    }
    try {
      return constructor.newInstance(arguments);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException refused) {
        throw refused;
      }
      throw new IllegalStateException(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@code record} as a record's {@code toString} shows it, with the values of secret options
   * ({@link OptionCatalog#isSecret}) and the passwords in URLs ({@link UrlPasswords#hide}) hidden:
   * for the {@code toString} of a record that has some.
   */
  public static String describe(Record record) {
    return Arrays.stream(record.getClass().getRecordComponents())
        .map(component -> component.getName() + "=" + shown(record, component))
        .collect(Collectors.joining(", ", record.getClass().getSimpleName() + "[", "]"));
  }

  private static String shown(Record record, RecordComponent component) {
    Option option = field(record.getClass(), component.getName()).getAnnotation(Option.class);
    try {
      Object value = component.getAccessor().invoke(record);
      boolean hide = value != null && option != null && OptionCatalog.isSecret(option.paramLabel());
      return hide ? "(hidden)" : UrlPasswords.hide(String.valueOf(value));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private OptionSpec option(Option option, Field field, int index) {
    Class<?> element = elementType(field);
    OptionSpec.Builder builder =
        OptionSpec.builder(option.names())
            .type(field.getType())
            .auxiliaryTypes(element)
            .description(option.description())
            .splitRegex(option.split())
            .userObject(field)
            .setter(
                new CommandLine.Model.ISetter() {
                  @Override
                  @SuppressWarnings("unchecked")
                  public <V> V set(V value) {
                    V old = (V) values[index];
                    values[index] = value;
                    return old;
                  }
                })
            .getter(
                new CommandLine.Model.IGetter() {
                  @Override
                  @SuppressWarnings("unchecked")
                  public <V> V get() {
                    return (V) values[index];
                  }
                });
    if (!option.paramLabel().isEmpty()) {
      builder.paramLabel(option.paramLabel());
    }
    if (!option.defaultValue().equals("__no_default_value__")) { // picocli's "none given"
      builder.defaultValue(option.defaultValue());
    }
    if (!option.arity().isEmpty()) {
      builder.arity(option.arity());
    }
    builder.hideParamSyntax(option.hideParamSyntax());
    if (option.converter().length > 0) {
      builder.converters(
          Arrays.stream(option.converter())
              .map(OptionRecord::instantiate)
              .toArray(ITypeConverter[]::new));
    } else if (parser(element) != null) {
      Method parse = parser(element);
      boolean list = element != field.getType();
      builder.converters(text -> list && text.isBlank() ? null : parsed(parse, text));
    } else if (element == int.class || element == Integer.class) {
      builder.converters(OptionValues::parseInt);
    }
    return builder.build();
  }

  private static Class<?> elementType(Field field) {
    if (field.getType().isArray()) {
      return field.getType().getComponentType();
    }
    if (Collection.class.isAssignableFrom(field.getType())) {
      return (Class<?>) ((ParameterizedType) field.getGenericType()).getActualTypeArguments()[0];
    }
    return field.getType();
  }

  /** What {@code parse} makes of {@code text}; its refusal is the message picocli shows. */
  private static Object parsed(Method parse, String text) throws ReflectiveOperationException {
    try {
      return parse.invoke(null, text);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof IllegalArgumentException refused) {
        throw new CommandLine.TypeConversionException(refused.getMessage());
      }
      throw e;
    }
  }

  /** The public static {@code parse(String)} of {@code type} returning one, or null. */
  private static Method parser(Class<?> type) {
    try {
      Method parse = type.getMethod("parse", String.class);
      boolean fits = Modifier.isStatic(parse.getModifiers()) && parse.getReturnType() == type;
      return fits ? parse : null;
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  private static ITypeConverter<?> instantiate(Class<? extends ITypeConverter<?>> type) {
    try {
      Constructor<? extends ITypeConverter<?>> made = type.getDeclaredConstructor();
      made.setAccessible(true);
      return made.newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Field field(Class<?> type, String name) {
    try {
      return type.getDeclaredField(name);
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(e);
    }
  }
}
