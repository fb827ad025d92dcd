//! Oracles: coreos/ignition `config/v3_*/types/*_test.go`, `config/v2_2/types` of ignition v0.35,
//! MCO `helpers_test.go` (`TestValidateIgnition`, `TestIgnParseWrapper`, file modes) and
//! ign-converter `v23tov30` tests, restated on YAML MachineConfig configs.

use super::*;

fn check(yaml: &str) -> Vec<(String, String)> {
    let parsed = nodecast_yaml::parse(yaml, &nodecast_yaml::Options::default());
    let root = &parsed.documents[0].root();
    let at = |pointer: String| Src {
        pointer,
        ..crate::forecast::mco::config::test_src()
    };
    validate(*root, &at)
        .into_iter()
        .map(|i| (i.src.pointer, i.message))
        .collect()
}

fn pointers(yaml: &str) -> Vec<String> {
    check(yaml).into_iter().map(|(p, _)| p).collect()
}

fn v3(body: &str) -> String {
    format!("ignition:\n  version: 3.4.0\n{body}")
}

#[test]
fn valid_configs_pass() {
    assert!(check("null").is_empty());
    assert!(check(&v3("")).is_empty());
    assert!(check(&v3(
        "storage:\n  files:\n  - path: /etc/motd\n    mode: 0644\n    overwrite: true\n    contents:\n      source: data:,hi%0A\n      compression: \"\"\n  directories:\n  - path: /etc/d\n    mode: 0755\n  links:\n  - path: /etc/l\n    target: /etc/motd\nsystemd:\n  units:\n  - name: a.service\n    enabled: true\n    contents: |\n      [Service]\n      ExecStart=/bin/true\n      [Install]\n      WantedBy=multi-user.target\n    dropins:\n    - name: 10-x.conf\n      contents: \"[Service]\\nEnvironment=A=b\\n\"\npasswd:\n  users:\n  - name: core\n    sshAuthorizedKeys: [ssh-ed25519 AAA]\n"
    ))
    .is_empty());
    assert!(check(
        "ignition:\n  version: 2.2.0\nstorage:\n  files:\n  - path: /etc/motd\n    filesystem: root\n    mode: 420\n    contents:\n      source: data:,hi\n"
    )
    .is_empty());
}

#[test]
fn versions_as_ign_parse_wrapper_reads_them() {
    for ok in [
        "3.0.0", "3.1.0", "3.2.0", "3.3.0", "3.4.0", "3.5.0", "2.2.0", "2.1.0",
    ] {
        let yaml = format!("ignition:\n  version: {ok}\n");
        assert!(check(&yaml).is_empty(), "{ok}");
    }
    for bad in [
        "2.3.0",
        "3.6.0",
        "4.0.0",
        "3.4.0-experimental",
        "3.4",
        "1.0.0",
        "03.4.0",
    ] {
        let yaml = format!("ignition:\n  version: \"{bad}\"\n");
        let out = check(&yaml);
        assert_eq!(out.len(), 1, "{bad}");
        assert_eq!(out[0].0, "/spec/config/ignition/version", "{bad}");
        assert!(
            out[0].1.contains("2.2, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5"),
            "{bad}"
        );
    }
    assert_eq!(pointers("{}"), ["/spec/config"], "no version at all");
    assert_eq!(pointers("ignition: {}"), ["/spec/config/ignition"]);
    assert_eq!(
        pointers("ignition:\n  version: 3"),
        ["/spec/config/ignition/version"]
    );
    assert_eq!(pointers("[a]"), ["/spec/config"], "not an object");
}

#[test]
fn wrong_json_types_are_unparseable() {
    let out = check(&v3(
        "storage:\n  files:\n  - path: /etc/x\n    mode: \"0644\"\n    overwrite: \"yes\"\n",
    ));
    assert_eq!(
        out.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(),
        [
            "/spec/config/storage/files/0/mode",
            "/spec/config/storage/files/0/overwrite"
        ]
    );
    assert!(out[0]
        .1
        .contains("`storage.files[0].mode` must be an integer, not string"));
    assert_eq!(
        pointers(&v3("systemd:\n  units: {a: b}\n")),
        ["/spec/config/systemd/units"]
    );
    assert!(
        check(&v3(
            "storage:\n  files:\n  - path: /etc/x\n    mode: 420.0\n"
        ))
        .is_empty(),
        "a whole float is stored as an integer"
    );
    assert!(check(&v3(
        "storage:\n  files:\n  - path: /etc/x\n    unknown: 1\n"
    ))
    .is_empty());
}

#[test]
fn paths_absolute_present_clean_and_unique() {
    let out = check(&v3(
        "storage:\n  files:\n  - mode: 420\n  - path: etc/x\n  - path: /etc//y\n  - path: /etc/z\n  directories:\n  - path: /etc/z\n",
    ));
    let ps: Vec<&str> = out.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        ps,
        [
            "/spec/config/storage/files/0",
            "/spec/config/storage/files/1/path",
            "/spec/config/storage/files/2/path",
            "/spec/config/storage/files/3/path",
        ]
    );
    assert!(out[0]
        .1
        .contains("has no `path` (Ignition: path not specified)"));
    assert!(out[1].1.contains("not absolute"));
    assert!(out[2].1.contains("write /etc/y"));
    assert!(out[3].1.contains("already defined by directory /etc/z"));
}

#[test]
fn modes() {
    let out = check(&v3(
        "storage:\n  files:\n  - path: /a\n    mode: 04755\n  - path: /b\n    mode: 8192\n  - path: /c\n    mode: -1\n  directories:\n  - path: /d\n    mode: 01777\n",
    ));
    let ps: Vec<&str> = out.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        ps,
        [
            "/spec/config/storage/files/1/mode",
            "/spec/config/storage/files/2/mode",
            "/spec/config/storage/files/0/mode",
        ]
    );
    assert!(out[0].1.contains("illegal file mode 020000 (8192;"));
    assert!(out[2]
        .1
        .contains("file /a: invalid mode 04755, cannot exceed 0777"));
}

#[test]
fn sources_compression_verification_overwrite() {
    let out = check(&v3(
        "storage:\n  files:\n  - path: /a\n    contents:\n      source: \"data:,a b\"\n  - path: /b\n    contents:\n      source: ftp://x/y\n      compression: xz\n  - path: /c\n    overwrite: true\n  - path: /d\n    contents:\n      source: https://x/y\n      verification:\n        hash: sha512-abc\n  - path: /e\n    contents:\n      verification:\n        hash: sha512-abc\n",
    ));
    let ps: Vec<&str> = out.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        ps,
        [
            "/spec/config/storage/files/0/contents/source",
            "/spec/config/storage/files/1/contents/source",
            "/spec/config/storage/files/1/contents/compression",
            "/spec/config/storage/files/2/overwrite",
            "/spec/config/storage/files/3/contents/verification/hash",
            "/spec/config/storage/files/4/contents/verification/hash",
        ]
    );
    assert!(out[0]
        .1
        .contains("invalid data URL: invalid data character"));
    assert!(out[3]
        .1
        .contains("overwrite must be false if source is unspecified"));
    assert!(out[5]
        .1
        .contains("source must be specified if verification"));
}

#[test]
fn units_and_dropins() {
    let out = check(&v3(
        "systemd:\n  units:\n  - contents: \"[Unit]\"\n  - name: foo\n  - name: a.service\n    contents: \"[Unit\"\n    dropins:\n    - name: x.txt\n    - name: y.conf\n      contents: \"[Service]\\nNoEquals\\n\"\n    - name: y.conf\n  - name: a.service\n",
    ));
    let ps: Vec<&str> = out.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        ps,
        [
            "/spec/config/systemd/units/0",
            "/spec/config/systemd/units/1/name",
            "/spec/config/systemd/units/2/contents",
            "/spec/config/systemd/units/2/dropins/0/name",
            "/spec/config/systemd/units/2/dropins/1/contents",
            "/spec/config/systemd/units/2/dropins/2/name",
            "/spec/config/systemd/units/3/name",
        ]
    );
    assert!(out[0].1.contains("systemd.units[0] has no `name`"));
    assert!(out[2].1.contains("unable to find end of section"));
    assert!(out[6].1.contains("listed twice"));
}

#[test]
fn links_users_kargs_and_systemd_paths() {
    let out = check(&v3(
        "storage:\n  files:\n  - path: /etc/l/x\n    contents: {source: \"data:,\"}\n  - path: /etc/systemd/system/a.service\n    contents: {source: \"data:,\"}\n  links:\n  - path: /etc/l\n    target: /etc\n  - path: /etc/m\nsystemd:\n  units:\n  - name: a.service\n    contents: \"[Unit]\"\npasswd:\n  users:\n  - name: core\n    sshAuthorizedKeys: [k, k]\n  - name: core\nkernelArguments:\n  shouldExist: [a]\n  shouldNotExist: [a]\n",
    ));
    let ps: Vec<&str> = out.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        ps,
        [
            "/spec/config/storage/links/1",
            "/spec/config/storage/files/0/path",
            "/spec/config/storage/files/1/path",
            "/spec/config/passwd/users/0/sshAuthorizedKeys/1",
            "/spec/config/passwd/users/1/name",
            "/spec/config/kernelArguments/shouldNotExist/0",
        ]
    );
    assert!(out[0].1.contains("link target is required"));
    assert!(out[1].1.contains("goes through the link /etc/l"));
    assert!(out[2].1.contains("conflicts with a systemd unit"));
}

#[test]
fn link_target_is_required_from_3_3_only() {
    let yaml = "ignition:\n  version: 3.2.0\nstorage:\n  links:\n  - path: /etc/m\n";
    assert!(check(yaml).is_empty());
}

#[test]
fn ignition_2_2_rules() {
    let out = check(
        "ignition:\n  version: 2.2.0\nstorage:\n  files:\n  - path: /etc/a\n    mode: 420\n  - path: /etc/b\n    filesystem: root\n    append: true\n    overwrite: true\n  - path: /etc/a\n    filesystem: root\n  - path: /etc/a\n    filesystem: root\n  directories:\n  - path: /etc/b\n    filesystem: root\n  filesystems:\n  - name: data\n    mount: {device: /dev/sdb, format: xfs}\nsystemd:\n  units:\n  - name: a.service\n  - name: a.service\npasswd:\n  users:\n  - name: admin\nnetworkd:\n  units:\n  - name: x.network\n",
    );
    let ps: Vec<&str> = out.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        ps,
        [
            "/spec/config/storage/files/0",
            "/spec/config/storage/files/1/append",
            "/spec/config/passwd/users/0/name",
            "/spec/config/storage/filesystems/0",
            "/spec/config/networkd/units/0",
            "/spec/config/storage/directories/0/path",
        ]
    );
    assert!(out[0].1.contains("has no `filesystem`"));
    assert!(out[2].1.contains("only the core user"));
    assert!(out[5].1.contains("already defined by file /etc/b"));
}

#[test]
fn ignition_section_sources() {
    let out = check(&v3(
        "  config:\n    merge:\n    - {}\n  security:\n    tls:\n      certificateAuthorities:\n      - source: \"ftp://x\"\n  proxy:\n    httpsProxy: socks5://x\n",
    ));
    let ps: Vec<&str> = out.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        ps,
        [
            "/spec/config/ignition/config/merge/0",
            "/spec/config/ignition/security/tls/certificateAuthorities/0/source",
            "/spec/config/ignition/proxy/httpsProxy",
        ]
    );
}
