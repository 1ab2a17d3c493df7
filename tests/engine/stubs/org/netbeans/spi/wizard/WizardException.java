/*
 * Minimal stand-in for the NetBeans Wizard library (not packaged by Debian),
 * written for the engine test harness: it lets VASSAL link its WizardSupport.
 * Only types and signatures; any attempt to actually show a wizard throws.
 */
package org.netbeans.spi.wizard;

public class WizardException extends Exception {
  private static final long serialVersionUID = 1L;
  public WizardException(String message) { super(message); }
  public WizardException(String message, String step) { super(message); }
}
