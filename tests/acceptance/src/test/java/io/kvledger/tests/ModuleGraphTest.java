package io.kvledger.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The module graph of {@code docs/architecture.md} is the poms' graph: the same modules, the same
 * compile arrows ({@code -->}) and test arrows ({@code -.->}) between kvledger modules; and the BOM
 * lists every published module at the root's version, and JUnit at the testkit's.
 */
class ModuleGraphTest {

    private static final Path ROOT = Path.of("../..");
    private static final Pattern NODE = Pattern.compile("^\\s*(\\w+)\\[\"([\\w-]+)\"]\\s*$");
    private static final Pattern EDGE = Pattern.compile("^\\s*(\\w+)\\s*(-->|-\\.->)\\s*(\\w+)\\s*$");

    /** artifactId to its pom, every module of the reactor (aggregators and the root left out). */
    private static Map<String, Element> modules() throws Exception {
        Map<String, Element> modules = new LinkedHashMap<>();
        collect(ROOT, modules);
        return modules;
    }

    private static void collect(Path dir, Map<String, Element> modules) throws Exception {
        Element pom = parse(dir.resolve("pom.xml"));
        List<String> children = texts(child(pom, "modules"), "module");
        if (children.isEmpty()) {
            modules.put(text(pom, "artifactId"), pom);
            DIRS.put(pom, ROOT.relativize(dir));
        }
        for (String module : children) {
            collect(dir.resolve(module), modules);
        }
    }

    @Test
    void theDiagramNamesEveryModuleAndEveryDependencyOfThePoms() throws Exception {
        Map<String, Element> modules = modules();
        Set<String> pomArrows = new TreeSet<>();
        for (Map.Entry<String, Element> module : modules.entrySet()) {
            for (Element dependency : children(child(module.getValue(), "dependencies"), "dependency")) {
                if (text(dependency, "groupId").equals("io.kvledger")) {
                    String arrow = "test".equals(text(dependency, "scope")) ? " -.-> " : " --> ";
                    pomArrows.add(module.getKey() + arrow + text(dependency, "artifactId"));
                }
            }
        }
        Map<String, String> nodes = new LinkedHashMap<>();
        Set<String> diagramArrows = new TreeSet<>();
        List<String> edges = new ArrayList<>();
        for (String line : mermaid()) {
            Matcher node = NODE.matcher(line);
            Matcher edge = EDGE.matcher(line);
            if (node.matches()) {
                nodes.put(node.group(1), node.group(2));
            } else if (edge.matches()) {
                edges.add(line);
                diagramArrows.add(edge.group(1) + " " + edge.group(2) + " " + edge.group(3));
            } else if (!line.isBlank() && !line.strip().startsWith("flowchart")) {
                throw new AssertionError("a line of the diagram that is neither a module nor an arrow: " + line);
            }
        }
        Set<String> named = new TreeSet<>();
        for (String arrow : diagramArrows) {
            String[] parts = arrow.split(" ");
            assertTrue(nodes.containsKey(parts[0]) && nodes.containsKey(parts[2]), "an arrow between undeclared modules: " + arrow);
            named.add(nodes.get(parts[0]) + " " + parts[1] + " " + nodes.get(parts[2]));
        }

        assertEquals(new TreeSet<>(modules.keySet()), new TreeSet<>(nodes.values()), "the diagram's modules are the poms' modules");
        assertEquals(pomArrows, named, "the diagram's arrows are the poms' kvledger dependencies");
        assertFalse(edges.isEmpty());
    }

    @Test
    void aModuleDependedOnForOneConcernPullsNoFrameworkOfAnother() throws Exception {
        Map<String, Element> modules = modules();

        assertEquals(Set.of(), libraryGroups("kvledger-logtools", modules), "the log tools pull no library, Axon least of all");
        assertEquals(Set.of("com.fasterxml.jackson.core"), libraryGroups("kvledger-formats", modules));
        assertEquals(Set.of(), libraryGroups("kvledger-domain", modules), "the domain and its containers are plain Java");
        Set<String> engine = libraryGroups("kvledger-engine", modules);
        assertTrue(engine.contains("org.axonframework"), engine.toString());
        assertFalse(engine.contains("info.picocli") || engine.contains("io.micrometer"), "the engine pulls no CLI or metrics: " + engine);
        Set<String> testkit = libraryGroups("kvledger-testkit", modules);
        assertFalse(testkit.contains("info.picocli") || testkit.contains("io.micrometer"), testkit.toString());
    }

    /** The groups of the libraries a module pulls at compile time, through its kvledger modules too. */
    private static Set<String> libraryGroups(String artifact, Map<String, Element> modules) {
        Set<String> groups = new TreeSet<>();
        List<String> todo = new ArrayList<>(List.of(artifact));
        Set<String> seen = new TreeSet<>();
        while (!todo.isEmpty()) {
            String next = todo.remove(todo.size() - 1);
            if (!seen.add(next)) {
                continue;
            }
            for (Element dependency : children(child(modules.get(next), "dependencies"), "dependency")) {
                String scope = text(dependency, "scope");
                if (scope != null && !scope.equals("compile") || "true".equals(text(dependency, "optional"))) {
                    continue;
                }
                if (text(dependency, "groupId").equals("io.kvledger")) {
                    todo.add(text(dependency, "artifactId"));
                } else {
                    groups.add(text(dependency, "groupId"));
                }
            }
        }
        return groups;
    }

    @Test
    void theBomListsEveryPublishedModuleAtTheRootsVersion() throws Exception {
        Element root = parse(ROOT.resolve("pom.xml"));
        Element bom = parse(ROOT.resolve("bom/pom.xml"));
        Set<String> published = new TreeSet<>(modules().keySet());
        published.removeAll(Set.of("kvledger-bom", "kvledger-acceptance", "kvledger-examples"));
        Set<String> listed = new TreeSet<>();
        Set<String> imported = new TreeSet<>();
        for (Element dependency : children(child(child(bom, "dependencyManagement"), "dependencies"), "dependency")) {
            if (!text(dependency, "groupId").equals("io.kvledger")) {
                imported.add(text(dependency, "groupId") + ":" + text(dependency, "artifactId") + " " + text(dependency, "scope"));
                continue;
            }
            listed.add(text(dependency, "artifactId"));
            assertEquals("${project.version}", text(dependency, "version"), text(dependency, "artifactId"));
        }

        assertEquals(text(root, "version"), text(bom, "version"));
        assertEquals(published, listed);
        assertEquals(Set.of("org.junit:junit-bom import"), imported, "beside kvledger's own, the BOM manages JUnit only");
        assertEquals(text(child(root, "properties"), "junit.version"), text(child(bom, "properties"), "junit.version"),
                "the BOM aligns a host's JUnit on the version the testkit is built on");
    }

    @Test
    void everyPackageOfEveryModuleSaysWhatItIsFor() throws Exception {
        List<Path> missing = new ArrayList<>();
        int packages = 0;
        for (Element pom : modules().values()) {
            Path sources = ROOT.resolve(moduleDir(pom)).resolve("src/main/java");
            if (!Files.isDirectory(sources)) {
                continue;
            }
            try (var dirs = Files.walk(sources)) {
                for (Path dir : dirs.filter(Files::isDirectory).toList()) {
                    boolean hasSources;
                    try (var files = Files.list(dir)) {
                        hasSources = files.anyMatch(f -> f.toString().endsWith(".java") && !f.endsWith("package-info.java"));
                    }
                    if (hasSources) {
                        packages++;
                        Path info = dir.resolve("package-info.java");
                        if (!Files.exists(info) || !Files.readString(info).contains("/**")) {
                            missing.add(ROOT.relativize(dir));
                        }
                    }
                }
            }
        }
        assertTrue(packages > 20, "packages found: " + packages);
        assertEquals(List.of(), missing, "packages without a documented package-info.java");
    }

    private static final Map<Element, Path> DIRS = new java.util.IdentityHashMap<>();

    private static Path moduleDir(Element pom) {
        return DIRS.get(pom);
    }

    private static List<String> mermaid() throws Exception {
        String doc = Files.readString(ROOT.resolve("docs/architecture.md"));
        int start = doc.indexOf("```mermaid\n");
        assertTrue(start >= 0, "docs/architecture.md has a mermaid diagram");
        String body = doc.substring(start + "```mermaid\n".length());
        return body.substring(0, body.indexOf("```")).lines().toList();
    }

    private static Element parse(Path pom) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document document = factory.newDocumentBuilder().parse(pom.toFile());
        return document.getDocumentElement();
    }

    private static Element child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i) instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        if (parent != null) {
            NodeList nodes = parent.getChildNodes();
            for (int i = 0; i < nodes.getLength(); i++) {
                Node node = nodes.item(i);
                if (node instanceof Element e && e.getTagName().equals(name)) {
                    found.add(e);
                }
            }
        }
        return found;
    }

    private static List<String> texts(Element parent, String name) {
        return children(parent, name).stream().map(e -> e.getTextContent().strip()).toList();
    }

    private static String text(Element parent, String name) {
        Element element = child(parent, name);
        return element == null ? null : element.getTextContent().strip();
    }
}
