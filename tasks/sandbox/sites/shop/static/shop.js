// Small progressive enhancements; every form also works without them.
(function () {
  "use strict";

  function money(cents) {
    var dollars = Math.floor(cents / 100).toLocaleString("en-US");
    return "$" + dollars + "." + String(cents % 100).padStart(2, "0");
  }

  function updateCheckoutTotals() {
    var totals = document.getElementById("checkout-totals");
    var chosen = document.querySelector('input[name="shipping_method"]:checked');
    if (!totals || !chosen) return;
    var subtotal = parseInt(totals.getAttribute("data-subtotal"), 10);
    var cost = parseInt(chosen.getAttribute("data-cost"), 10);
    document.getElementById("checkout-shipping-amount").textContent = money(cost);
    document.getElementById("checkout-grand-total").textContent = money(subtotal + cost);
  }

  function syncRevealed() {
    var toggles = document.querySelectorAll("[data-reveals]");
    var targets = {};
    toggles.forEach(function (box) {
      var id = box.getAttribute("data-reveals");
      targets[id] = targets[id] || box.checked;
    });
    Object.keys(targets).forEach(function (id) {
      var target = document.getElementById(id);
      if (target) target.hidden = !targets[id];
    });
  }

  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches("select[data-autosubmit]") && el.form) {
      el.form.submit();
    } else if (el.matches('input[name="shipping_method"]')) {
      updateCheckoutTotals();
    } else if (el.matches("[data-reveals]")) {
      syncRevealed();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    syncRevealed();
    updateCheckoutTotals();
  });
})();
