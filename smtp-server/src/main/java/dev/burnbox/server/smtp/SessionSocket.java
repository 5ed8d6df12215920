package dev.burnbox.server.smtp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketImpl;
import java.net.SocketOption;
import java.nio.channels.SocketChannel;
import java.util.Objects;
import java.util.Set;

/**
 * The socket a SubEtha session talks to: a connection whose output is {@link CodedReplies}, so that
 * the replies SubEtha writes itself get their enhanced status codes. Everything else, input
 * included, is the connection's own: each method goes straight to it.
 *
 * <p>The connection is the accepted plain socket ({@link ReplyBatchingServerSocket} hands out one
 * of these for each), or after STARTTLS the TLS socket layered over that plain socket, and then the
 * session gets a new {@code SessionSocket} over the TLS one. TLS is layered over {@link
 * #connection()}, never over this view: TLS records go out untouched, and the codes are added to
 * the replies before encryption. Both views write into the same held output, so replies keep their
 * order and their batching. Thread-safe as the connection is.
 */
final class SessionSocket extends Socket {
  private final Socket connection;
  private OutputStream output; // guarded by this
  private volatile Runnable onSubEthaError = () -> {};

  SessionSocket(Socket connection) throws SocketException {
    super((SocketImpl) null); // the connection is the socket: this one owns no file descriptor
    this.connection = Objects.requireNonNull(connection, "connection");
  }

  /** The socket underneath, plain or TLS: what TLS is layered over. */
  Socket connection() {
    return connection;
  }

  /**
   * Has {@code listener} run after each error reply that SubEtha writes itself (an unknown or empty
   * verb...; see {@link CodedReplies}), on the session's thread.
   */
  void onSubEthaError(Runnable listener) {
    onSubEthaError = Objects.requireNonNull(listener, "listener");
  }

  /**
   * The same session's socket over {@code secure}, the TLS socket layered over {@link
   * #connection()} after STARTTLS: SubEtha's errors still go to this socket's listener.
   */
  SessionSocket over(Socket secure) throws SocketException {
    SessionSocket upgraded = new SessionSocket(secure);
    upgraded.onSubEthaError = onSubEthaError;
    return upgraded;
  }

  @Override
  public OutputStream getOutputStream() throws IOException {
    synchronized (this) {
      if (output == null) {
        output = new CodedReplies(connection.getOutputStream(), () -> onSubEthaError.run());
      }
      return output;
    }
  }

  @Override
  public InputStream getInputStream() throws IOException {
    return connection.getInputStream();
  }

  @Override
  public void connect(SocketAddress endpoint, int timeout) throws IOException {
    throw new SocketException("Already connected");
  }

  @Override
  public void bind(SocketAddress local) throws IOException {
    throw new SocketException("Already bound");
  }

  @Override
  public InetAddress getInetAddress() {
    return connection.getInetAddress();
  }

  @Override
  public InetAddress getLocalAddress() {
    return connection.getLocalAddress();
  }

  @Override
  public int getPort() {
    return connection.getPort();
  }

  @Override
  public int getLocalPort() {
    return connection.getLocalPort();
  }

  @Override
  public SocketAddress getRemoteSocketAddress() {
    return connection.getRemoteSocketAddress();
  }

  @Override
  public SocketAddress getLocalSocketAddress() {
    return connection.getLocalSocketAddress();
  }

  @Override
  public SocketChannel getChannel() {
    return connection.getChannel();
  }

  @Override
  public void setTcpNoDelay(boolean on) throws SocketException {
    connection.setTcpNoDelay(on);
  }

  @Override
  public boolean getTcpNoDelay() throws SocketException {
    return connection.getTcpNoDelay();
  }

  @Override
  public void setSoLinger(boolean on, int linger) throws SocketException {
    connection.setSoLinger(on, linger);
  }

  @Override
  public int getSoLinger() throws SocketException {
    return connection.getSoLinger();
  }

  @Override
  public void sendUrgentData(int data) throws IOException {
    connection.sendUrgentData(data);
  }

  @Override
  public void setOOBInline(boolean on) throws SocketException {
    connection.setOOBInline(on);
  }

  @Override
  public boolean getOOBInline() throws SocketException {
    return connection.getOOBInline();
  }

  @Override
  public void setSoTimeout(int timeout) throws SocketException {
    connection.setSoTimeout(timeout);
  }

  @Override
  public int getSoTimeout() throws SocketException {
    return connection.getSoTimeout();
  }

  @Override
  public void setSendBufferSize(int size) throws SocketException {
    connection.setSendBufferSize(size);
  }

  @Override
  public int getSendBufferSize() throws SocketException {
    return connection.getSendBufferSize();
  }

  @Override
  public void setReceiveBufferSize(int size) throws SocketException {
    connection.setReceiveBufferSize(size);
  }

  @Override
  public int getReceiveBufferSize() throws SocketException {
    return connection.getReceiveBufferSize();
  }

  @Override
  public void setKeepAlive(boolean on) throws SocketException {
    connection.setKeepAlive(on);
  }

  @Override
  public boolean getKeepAlive() throws SocketException {
    return connection.getKeepAlive();
  }

  @Override
  public void setTrafficClass(int trafficClass) throws SocketException {
    connection.setTrafficClass(trafficClass);
  }

  @Override
  public int getTrafficClass() throws SocketException {
    return connection.getTrafficClass();
  }

  @Override
  public void setReuseAddress(boolean on) throws SocketException {
    connection.setReuseAddress(on);
  }

  @Override
  public boolean getReuseAddress() throws SocketException {
    return connection.getReuseAddress();
  }

  @Override
  public void setPerformancePreferences(int connectionTime, int latency, int bandwidth) {
    connection.setPerformancePreferences(connectionTime, latency, bandwidth);
  }

  @Override
  public <T> Socket setOption(SocketOption<T> name, T value) throws IOException {
    connection.setOption(name, value);
    return this;
  }

  @Override
  public <T> T getOption(SocketOption<T> name) throws IOException {
    return connection.getOption(name);
  }

  @Override
  public Set<SocketOption<?>> supportedOptions() {
    return connection.supportedOptions();
  }

  @Override
  public void shutdownInput() throws IOException {
    connection.shutdownInput();
  }

  @Override
  public void shutdownOutput() throws IOException {
    connection.shutdownOutput();
  }

  @Override
  public void close() throws IOException {
    connection.close();
  }

  @Override
  public boolean isConnected() {
    return connection.isConnected();
  }

  @Override
  public boolean isBound() {
    return connection.isBound();
  }

  @Override
  public boolean isClosed() {
    return connection.isClosed();
  }

  @Override
  public boolean isInputShutdown() {
    return connection.isInputShutdown();
  }

  @Override
  public boolean isOutputShutdown() {
    return connection.isOutputShutdown();
  }

  @Override
  public String toString() {
    return connection.toString();
  }
}
