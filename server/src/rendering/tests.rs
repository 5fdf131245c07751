//! The document shell: the props written into the page cannot break out of their script tag.

use super::*;

#[test]
fn json_in_a_script_tag_cannot_close_it() {
    let json = script_safe_json(&serde_json::json!({ "name": "</script><script>alert(1)</script>" }));
    assert!(!json.contains("</script"));
    assert!(!json.contains('<'));
    let back: Value = serde_json::from_str(&json).unwrap_or_default();
    assert_eq!(back["name"], "</script><script>alert(1)</script>");
}
