"""The 14 standard LUBM queries (Guo, Pan, Heflin 2005), in SPARQL, over univ-bench instances.

Each needs some inference: Q6/Q14 the class hierarchy, Q5 sub-properties (headOf ⊑ worksFor ⊑
memberOf), Q11 the transitive subOrganizationOf, Q12 Chair ≡ Person ⊓ ∃headOf.Department, Q13 the
inverse hasAlumnus of degreeFrom, Q6–Q10 Student ≡ Person ⊓ ∃takesCourse.Course.
"""

PREFIXES = ("PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\n"
            "PREFIX ub: <http://swat.cse.lehigh.edu/onto/univ-bench.owl#>\n")

_BODIES = {
    "Q1": "SELECT ?X WHERE { ?X rdf:type ub:GraduateStudent . "
          "?X ub:takesCourse <http://www.Department0.University0.edu/GraduateCourse0> }",
    "Q2": "SELECT ?X ?Y ?Z WHERE { ?X rdf:type ub:GraduateStudent . ?Y rdf:type ub:University . "
          "?Z rdf:type ub:Department . ?X ub:memberOf ?Z . ?Z ub:subOrganizationOf ?Y . "
          "?X ub:undergraduateDegreeFrom ?Y }",
    "Q3": "SELECT ?X WHERE { ?X rdf:type ub:Publication . "
          "?X ub:publicationAuthor <http://www.Department0.University0.edu/AssistantProfessor0> }",
    "Q4": "SELECT ?X ?Y1 ?Y2 ?Y3 WHERE { ?X rdf:type ub:Professor . "
          "?X ub:worksFor <http://www.Department0.University0.edu> . ?X ub:name ?Y1 . "
          "?X ub:emailAddress ?Y2 . ?X ub:telephone ?Y3 }",
    "Q5": "SELECT ?X WHERE { ?X rdf:type ub:Person . ?X ub:memberOf <http://www.Department0.University0.edu> }",
    "Q6": "SELECT ?X WHERE { ?X rdf:type ub:Student }",
    "Q7": "SELECT ?X ?Y WHERE { ?X rdf:type ub:Student . ?Y rdf:type ub:Course . ?X ub:takesCourse ?Y . "
          "<http://www.Department0.University0.edu/AssociateProfessor0> ub:teacherOf ?Y }",
    "Q8": "SELECT ?X ?Y ?Z WHERE { ?X rdf:type ub:Student . ?Y rdf:type ub:Department . ?X ub:memberOf ?Y . "
          "?Y ub:subOrganizationOf <http://www.University0.edu> . ?X ub:emailAddress ?Z }",
    "Q9": "SELECT ?X ?Y ?Z WHERE { ?X rdf:type ub:Student . ?Y rdf:type ub:Faculty . ?Z rdf:type ub:Course . "
          "?X ub:advisor ?Y . ?Y ub:teacherOf ?Z . ?X ub:takesCourse ?Z }",
    "Q10": "SELECT ?X WHERE { ?X rdf:type ub:Student . "
           "?X ub:takesCourse <http://www.Department0.University0.edu/GraduateCourse0> }",
    "Q11": "SELECT ?X WHERE { ?X rdf:type ub:ResearchGroup . ?X ub:subOrganizationOf <http://www.University0.edu> }",
    "Q12": "SELECT ?X ?Y WHERE { ?X rdf:type ub:Chair . ?Y rdf:type ub:Department . ?X ub:worksFor ?Y . "
           "?Y ub:subOrganizationOf <http://www.University0.edu> }",
    "Q13": "SELECT ?X WHERE { ?X rdf:type ub:Person . <http://www.University0.edu> ub:hasAlumnus ?X }",
    "Q14": "SELECT ?X WHERE { ?X rdf:type ub:UndergraduateStudent }",
}

QUERIES: dict[str, str] = {name: PREFIXES + body for name, body in _BODIES.items()}
