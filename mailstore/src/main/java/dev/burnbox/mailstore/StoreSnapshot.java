package dev.burnbox.mailstore;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * Saves the in-memory store to a file on shutdown and restores it at start, so a restart keeps the
 * mail (off by default: Burnbox is a memory-only service unless told otherwise).
 *
 * <p>The file holds every listed message with its raw bytes, metadata, entry ids and stored-at
 * time, so ids stay valid across the restart and the time to live keeps counting from the first
 * delivery. Format: the 8-byte magic {@code BURNBOX\1}, then a zstd stream of records, their count
 * and the CRC-32 of the stream's bytes before it. It is written to a temporary file and moved into
 * place, so a crash while saving leaves the previous snapshot intact.
 *
 * <p>A damaged, truncated or foreign file is refused as a whole with an {@link IOException} saying
 * why; {@link #restore} never returns a partly restored store. Lengths read from the file are
 * bounded before anything is allocated. Not thread-safe with respect to deliveries made while
 * saving (they may be missed): save after the intake has stopped.
 */
public final class StoreSnapshot {
  // the last byte is the format: 2 added the verdict's probability and spam flag; 1 is still read
  private static final byte[] MAGIC = {'B', 'U', 'R', 'N', 'B', 'O', 'X', 2};
  private static final byte[] MAGIC_1 = {'B', 'U', 'R', 'N', 'B', 'O', 'X', 1};
  private static final int MAX_RAW = 1 << 30;
  private static final int MAX_STRING = 1 << 20;
  private static final int MAX_LIST = 1 << 16;

  private StoreSnapshot() {}

  /**
   * Checks now that {@link #save} will be able to write {@code file}, and changes nothing: if its
   * folder exists, a temporary file can be made in it (as {@code save} does; it is deleted at
   * once), else the nearest folder above it that exists is writable (so {@code save} can make the
   * missing ones); and {@code file} is not a folder. Makes no folder.
   *
   * @throws IOException saying why the snapshot could not be saved there
   */
  public static void checkWritable(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Path existing = dir;
    while (!Files.exists(existing)) {
      existing = existing.getParent(); // the root exists, so this ends
    }
    if (!Files.isDirectory(existing)) {
      throw new IOException(
          "cannot write the snapshot " + file + ": " + existing + " is not a folder");
    }
    if (!existing.equals(dir)) {
      if (!Files.isWritable(existing)) {
        throw new IOException(
            "cannot write the snapshot " + file + ": no permission to write in " + existing);
      }
      return;
    }
    try {
      Files.delete(Files.createTempFile(dir, file.getFileName().toString(), ".tmp"));
    } catch (AccessDeniedException e) {
      throw new IOException(
          "cannot write the snapshot " + file + ": no permission to write in " + e.getFile(), e);
    } catch (IOException e) {
      throw new IOException("cannot write the snapshot " + file + ": " + e, e);
    }
    if (Files.isDirectory(file)) {
      throw new IOException("the snapshot " + file + " is a folder");
    }
  }

  /**
   * Writes {@code store}'s messages to {@code file}, replacing it.
   *
   * @return how many messages (deliveries) were written
   * @throws UnsupportedOperationException if {@code store} keeps no snapshot (see {@link
   *     InboxStore#deliveries()})
   * @throws IOException if the file cannot be written
   */
  public static int save(InboxStore store, Path file) throws IOException {
    List<StoredDelivery> records = store.deliveries();
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
    try {
      CRC32 crc = new CRC32();
      OutputStream file0 = new BufferedOutputStream(Files.newOutputStream(temp));
      file0.write(MAGIC);
      try (DataOutputStream out =
          new DataOutputStream(
              new CheckedOutputStream(
                  new BufferedOutputStream(new ZstdOutputStream(file0, 3)), crc))) {
        for (StoredDelivery r : records) {
          out.writeByte(1);
          write(out, r);
        }
        out.writeByte(0);
        out.writeInt(records.size());
        out.writeLong(crc.getValue()); // of everything before it
      }
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(temp);
    }
    return records.size();
  }

  /**
   * A new store built by {@code builder} holding the messages saved in {@code file}; messages whose
   * time to live ran out meanwhile are left out, and the store's own limits apply as they are
   * restored (oldest first).
   *
   * @throws IOException if the file cannot be read, is not a Burnbox snapshot, or is damaged; no
   *     store is returned then
   */
  public static InboxStore restore(Path file, InboxStore.Builder builder) throws IOException {
    Objects.requireNonNull(builder, "builder");
    InboxStore store = builder.build();
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
      byte[] magic = raw.readNBytes(MAGIC.length);
      boolean version1 = Arrays.equals(magic, MAGIC_1);
      if (!version1 && !Arrays.equals(magic, MAGIC)) {
        throw new IOException(file + " is not a Burnbox snapshot (bad magic number)");
      }
      CRC32 crc = new CRC32();
      DataInputStream in =
          new DataInputStream(
              new CheckedInputStream(new BufferedInputStream(new ZstdInputStream(raw)), crc));
      int count = 0;
      List<StoredDelivery> batch = new ArrayList<>();
      while (in.readByte() == 1) {
        batch.add(read(in, version1));
        count++;
        if (batch.size() == 1000) {
          restoreAll(store, batch);
        }
      }
      int expected = in.readInt();
      long computed = crc.getValue();
      long stored = in.readLong();
      if (expected != count || stored != computed) {
        throw new IOException(file + " is damaged (checksum or record count mismatch)");
      }
      if (in.read() != -1) { // also makes the decompressor check the stream's end
        throw new IOException(file + " is damaged (data after the end)");
      }
      restoreAll(store, batch);
      return store;
    } catch (EOFException e) {
      throw new IOException(file + " is truncated", e);
    } catch (IOException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(file.toString())) {
        throw e;
      }
      throw new IOException(file + " is damaged: " + e.getMessage(), e);
    } catch (RuntimeException e) { // a record that does not make sense (bad name, id, score)
      throw new IOException(file + " is damaged: " + e.getMessage(), e);
    }
  }

  private static void restoreAll(InboxStore store, List<StoredDelivery> batch) {
    for (StoredDelivery r : batch) {
      store.restore(r);
    }
    batch.clear();
  }

  private static void write(DataOutputStream out, StoredDelivery r) throws IOException {
    IncomingMessage m = r.message();
    byte[] raw = m.rawView();
    out.writeInt(raw.length);
    out.write(raw);
    writeString(out, m.envelopeSender());
    writeString(out, m.from());
    writeString(out, m.subject());
    out.writeLong(m.receivedAt().getEpochSecond());
    out.writeInt(m.receivedAt().getNano());
    out.writeLong(r.storedAtMillis());
    out.writeDouble(m.verdict().score());
    out.writeShort(m.verdict().terms().size());
    for (String term : m.verdict().terms()) {
      writeString(out, term);
    }
    out.writeDouble(m.verdict().probability());
    out.writeBoolean(m.verdict().spam());
    out.writeShort(r.ids().size());
    for (int i = 0; i < r.ids().size(); i++) {
      writeString(out, m.recipients().get(i).value());
      writeString(out, r.ids().get(i).value());
    }
  }

  private static StoredDelivery read(DataInputStream in, boolean version1) throws IOException {
    byte[] raw = new byte[length(in.readInt(), MAX_RAW, "message")];
    in.readFully(raw);
    String sender = readString(in);
    String from = readString(in);
    String subject = readString(in);
    Instant receivedAt = Instant.ofEpochSecond(in.readLong(), in.readInt());
    long storedAt = in.readLong();
    double score = in.readDouble();
    int termCount = length(in.readUnsignedShort(), MAX_LIST, "term list");
    List<String> terms = new ArrayList<>(termCount);
    for (int i = 0; i < termCount; i++) {
      terms.add(readString(in));
    }
    SpamVerdict verdict =
        version1
            ? SpamVerdict.ofScore(terms, score)
            : new SpamVerdict(terms, score, in.readDouble(), in.readBoolean());
    int entryCount = length(in.readUnsignedShort(), MAX_LIST, "entry list");
    List<InboxName> inboxes = new ArrayList<>(entryCount);
    List<MessageId> ids = new ArrayList<>(entryCount);
    for (int i = 0; i < entryCount; i++) {
      inboxes.add(InboxName.of(readString(in)));
      ids.add(MessageId.parse(readString(in)));
    }
    IncomingMessage message =
        new IncomingMessage(raw, sender, inboxes, receivedAt, from, subject, verdict);
    return new StoredDelivery(message, ids, storedAt);
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static String readString(DataInputStream in) throws IOException {
    byte[] bytes = new byte[length(in.readInt(), MAX_STRING, "text")];
    in.readFully(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static int length(int n, int max, String what) throws IOException {
    if (n < 0 || n > max) {
      throw new IOException("a " + what + " length of " + n + " is out of range");
    }
    return n;
  }
}
