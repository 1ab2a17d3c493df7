/*
 * Minimal stand-in for the NetBeans Wizard library (not packaged by Debian),
 * written for the engine test harness: it lets VASSAL link its WizardSupport.
 * Only types and signatures; any attempt to actually show a wizard throws.
 */
package org.netbeans.spi.wizard;

import java.awt.Container;

public interface ResultProgressHandle {
  void setProgress(int current, int total);
  void setProgress(String description, int current, int total);
  void setBusy(String description);
  void finished(Object result);
  void failed(String message, boolean canNavigateBack);
  void addProgressComponents(Container panel);
  boolean isRunning();
}
