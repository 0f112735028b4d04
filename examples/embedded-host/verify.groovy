// Run by maven-invoker-plugin after the host's build: a host that embeds kvledger and brings an SLF4J
// provider gets no "No SLF4J providers" warning (kvledger's libraries declare none of their own).
def log = new File(basedir, 'build.log').text
assert !log.contains('No SLF4J providers') : 'the host got SLF4J\'s "No SLF4J providers" warning'
assert log.contains('Tests run:') : 'the host ran no test'
