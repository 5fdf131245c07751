//! What search engines read: canonical addresses, structured data (schema.org JSON-LD), the
//! sitemap and robots.txt. Built from the configuration and the catalogue, never from the request.

use crate::catalogue::PRICE_LIST;
use crate::config::Business;
use serde_json::{Value, json};

/// The public pages search engines should index, with how often they change.
pub const INDEXED_PAGES: [(&str, &str); 6] = [
    ("/", "weekly"),
    ("/pricing", "weekly"),
    ("/order", "monthly"),
    ("/tracking", "monthly"),
    ("/contact", "monthly"),
    ("/privacy", "yearly"),
];

/// Whether a page at `path` belongs in search results (the confirmation and error pages do not).
pub fn is_indexed(path: &str) -> bool {
    INDEXED_PAGES.iter().any(|(indexed, _)| *indexed == path)
}

/// The schema.org `DryCleaningOrLaundry` of every page; on /pricing with the price list as an
/// `OfferCatalog`.
pub fn structured_data(business: &Business, base_url: &str, page: &str) -> Value {
    let mut laundry = json!({
        "@context": "https://schema.org",
        "@type": "DryCleaningOrLaundry",
        "name": business.name,
        "url": format!("{base_url}/"),
        "telephone": business.phone,
        "email": business.email,
        "address": { "@type": "PostalAddress", "streetAddress": business.location, "addressLocality": "Nairobi", "addressCountry": "KE" },
        "areaServed": { "@type": "City", "name": "Nairobi" },
        "priceRange": "KSh",
        "currenciesAccepted": "KES",
        "paymentAccepted": "M-PESA, Cash",
        "openingHoursSpecification": {
            "@type": "OpeningHoursSpecification",
            "dayOfWeek": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
            "opens": "00:00",
            "closes": "23:59"
        }
    });
    if page == "pricing" {
        let offers: Vec<Value> = PRICE_LIST
            .iter()
            .map(|entry| {
                json!({
                    "@type": "Offer",
                    "itemOffered": { "@type": "Service", "name": entry.item },
                    "price": entry.price,
                    "priceCurrency": "KES"
                })
            })
            .collect();
        laundry["hasOfferCatalog"] =
            json!({ "@type": "OfferCatalog", "name": "Price List", "itemListElement": offers });
    }
    laundry
}

/// `/sitemap.xml` for `base_url`.
pub fn sitemap(base_url: &str) -> String {
    let mut xml = String::from(r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    xml.push_str("\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for (path, changes) in INDEXED_PAGES {
        xml.push_str(&format!(
            "  <url><loc>{}{path}</loc><changefreq>{changes}</changefreq></url>\n",
            escape_xml(base_url)
        ));
    }
    xml.push_str("</urlset>\n");
    xml
}

/// `/robots.txt`: everything public, nothing of the staff area or the API.
pub fn robots(base_url: &str) -> String {
    format!("User-agent: *\nAllow: /\nDisallow: /admin\nDisallow: /api/\n\nSitemap: {base_url}/sitemap.xml\n")
}

fn escape_xml(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;

    fn business() -> Business {
        Settings::from_lookup(|_| None).map(|s| s.business).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_pricing_page_carries_all_34_offers_in_shillings() {
        let data = structured_data(&business(), "https://laundry.example.com", "pricing");
        let offers = data["hasOfferCatalog"]["itemListElement"].as_array().map_or(0, Vec::len);
        assert_eq!(offers, 34);
        assert_eq!(data["hasOfferCatalog"]["itemListElement"][0]["priceCurrency"], "KES");
    }

    #[test]
    fn other_pages_carry_the_business_without_the_catalogue() {
        let data = structured_data(&business(), "https://laundry.example.com", "home");
        assert_eq!(data["@type"], "DryCleaningOrLaundry");
        assert_eq!(data["areaServed"]["name"], "Nairobi");
        assert!(data.get("hasOfferCatalog").is_none());
    }

    #[test]
    fn robots_keeps_crawlers_out_of_the_admin_and_names_the_sitemap() {
        let robots = robots("https://laundry.example.com");
        assert!(robots.contains("Disallow: /admin\n"));
        assert!(robots.contains("Sitemap: https://laundry.example.com/sitemap.xml"));
    }

    #[test]
    fn the_sitemap_lists_the_indexed_pages_only() {
        let xml = sitemap("https://laundry.example.com");
        assert!(xml.contains("<loc>https://laundry.example.com/pricing</loc>"));
        assert!(xml.contains("<loc>https://laundry.example.com/privacy</loc>"));
        assert!(!xml.contains("confirmation"));
        assert_eq!(xml.matches("<url>").count(), 6);
    }
}
